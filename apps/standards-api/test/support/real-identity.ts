// The real identity service for cross-service tests: its built artifact in a child process (an app
// never imports another app's source), on a database of its own, with a bootstrap platform key.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, type TestDatabase } from '@stdreg/server-kit/testing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ARTIFACT = path.join(ROOT, 'dist/apps/identity/main.js');

export interface RealIdentity {
  url: string;
  serviceToken: string;
  platformKey: string;
  /** One more identity process on the same database and issuer (give both a REDIS_URL to share what replicas share). */
  replica(): Promise<{ url: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/** `env` adds to identity's environment; `onOutput` receives its stdout (JSON log lines), otherwise ignored. */
export async function startRealIdentity(
  options: { env?: Record<string, string>; onOutput?: (chunk: string) => void } = {},
): Promise<RealIdentity> {
  if (!existsSync(ARTIFACT)) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'tools/build/build-app.mjs'), 'identity'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('could not build identity');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-identity-'));
  const database: TestDatabase = await createTestDatabase('identity_for_standards');
  const serviceToken = randomBytes(32).toString('base64url');
  const env = {
    PATH: process.env['PATH'] ?? '',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `standards-api:${serviceToken}`,
    ...(database.kind === 'server' ? database.env : {}),
    ...options.env,
  };
  const replicas: { stop(): Promise<void> }[] = [];
  const first = await spawnIdentity(env, options.onOutput);
  const stop = async () => {
    for (const replica of replicas) await replica.stop();
    await first.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  if (!first.ready) {
    await stop();
    throw new Error('identity did not become ready');
  }
  const platformKey = (await readFile(path.join(dataDir, 'bootstrap-platform-key'), 'utf8')).trim();
  const replica = async () => {
    // Replicas sit behind one public address in production: a replica names the first's issuer, so it
    // accepts the access tokens the first issued (the issuer defaults to each process's own address).
    const started = await spawnIdentity({ OIDC_ISSUER: `${first.url}/oidc`, ...env });
    replicas.push(started);
    if (!started.ready) throw new Error('the identity replica did not become ready');
    return started;
  };
  return { url: first.url, serviceToken, platformKey, replica, stop };
}

/** An organization and an app key acting for it, made by the operator (the platform key) through identity's API. */
export async function newPartner(identity: RealIdentity, name = 'Partner'): Promise<{ organizationId: string; key: string }> {
  const asOperator = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${identity.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${identity.platformKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const organization = await asOperator('/v1/organizations', { name });
  const issued = await asOperator('/v1/keys', { name: 'partner', class: 'app', organizationId: organization['id'] });
  return { organizationId: organization['id'] as string, key: issued['secret'] as string };
}

async function spawnIdentity(
  env: Record<string, string>,
  onOutput?: (chunk: string) => void,
): Promise<{ url: string; ready: boolean; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [ARTIFACT], {
    cwd: ROOT,
    stdio: ['ignore', onOutput ? 'pipe' : 'ignore', 'inherit'],
    env: { ...env, IDENTITY_PORT: String(port) },
  });
  child.stdout?.on('data', (chunk: Buffer) => onOutput?.(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  // A deadline rather than a count of tries: on a busy machine a first start (migrations, key generation) takes long.
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, ready: true, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  return { url, ready: false, stop };
}
