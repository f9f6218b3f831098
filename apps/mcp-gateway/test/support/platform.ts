// identity and standards-api, built, in child processes, on databases of their own, wired to each other.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startBuiltService } from '@stdreg/server-kit/testing';

/** Two services with migrations and a content import, on a loaded 2-core machine: more than the default test timeout. */
export const PLATFORM_START_TIMEOUT_MS = 180_000;

export interface Platform {
  identityUrl: string;
  standardsApiUrl: string;
  /** The credential the gateway (and standards-api) present to identity's decision endpoint. */
  serviceToken: string;
  platformKey: string;
  /** A new organization and an app key of it. */
  newAppKey(): Promise<{ secret: string; organizationId: string; keyId: string }>;
  /** Revokes a key; resolves once identity accepts it nowhere any more. */
  revokeKey(keyId: string): Promise<void>;
  stop(): Promise<void>;
}

/** `identityEnv`: more settings for identity (e.g. OIDC_MCP_RESOURCE, the gateway's URL). */
export async function startPlatform(identityEnv: Record<string, string> = {}): Promise<Platform> {
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const serviceToken = randomBytes(32).toString('base64url');
    const identityData = await mkdtemp(path.join(tmpdir(), 'stdreg-mcp-identity-'));
    cleanups.push(() => rm(identityData, { recursive: true, force: true }));
    const identityDb = await createTestDatabase('identity_for_mcp');
    cleanups.push(() => identityDb.drop());
    const identityPort = await freePort();
    const identity = await startBuiltService('identity', identityPort, {
      IDENTITY_PORT: String(identityPort),
      DATA_DIR: identityData,
      BOOTSTRAP_PLATFORM_KEY: 'auto',
      DECISION_SERVICE_TOKENS: `platform:${serviceToken}`,
      ...(identityDb.kind === 'server' ? identityDb.env : {}),
      ...identityEnv,
    });
    cleanups.push(identity.stop);
    const platformKey = (await readFile(path.join(identityData, 'bootstrap-platform-key'), 'utf8')).trim();

    const standardsData = await mkdtemp(path.join(tmpdir(), 'stdreg-mcp-standards-'));
    cleanups.push(() => rm(standardsData, { recursive: true, force: true }));
    const standardsDb = await createTestDatabase('standards_for_mcp');
    cleanups.push(() => standardsDb.drop());
    const standardsPort = await freePort();
    const standardsApi = await startBuiltService('standards-api', standardsPort, {
      STANDARDS_API_PORT: String(standardsPort),
      DATA_DIR: standardsData,
      IDENTITY_URL: identity.url,
      IDENTITY_SERVICE_TOKEN: serviceToken,
      ...(standardsDb.kind === 'server' ? standardsDb.env : {}),
    });
    cleanups.push(standardsApi.stop);

    const asPlatform = { authorization: `Bearer ${platformKey}`, 'content-type': 'application/json' };
    const newAppKey = async () => {
      const organization = await fetch(`${identity.url}/v1/organizations`, {
        method: 'POST',
        headers: asPlatform,
        body: JSON.stringify({ name: `Org ${randomBytes(3).toString('hex')}` }),
      }).then((r) => r.json() as Promise<{ id: string }>);
      const issued = await fetch(`${identity.url}/v1/keys`, {
        method: 'POST',
        headers: asPlatform,
        body: JSON.stringify({ name: 'agent key', class: 'app', organizationId: organization.id }),
      }).then((r) => r.json() as Promise<{ secret: string; key: { id: string } }>);
      return { secret: issued.secret, organizationId: organization.id, keyId: issued.key.id };
    };
    const revokeKey = async (keyId: string) => {
      const revoked = await fetch(`${identity.url}/v1/keys/${keyId}/revoke`, { method: 'POST', headers: asPlatform });
      if (!revoked.ok) throw new Error(`revoking key ${keyId} answered ${revoked.status}`);
    };
    return { identityUrl: identity.url, standardsApiUrl: standardsApi.url, serviceToken, platformKey, newAppKey, revokeKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
