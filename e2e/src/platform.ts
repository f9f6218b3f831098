// The three services as they ship. On the embedded defaults: exactly as `npm start` runs them (its
// own program, tools/start.mjs). With DATABASE_URL and REDIS_URL set: their built artifacts in child
// processes, wired as the deploy files wire them, on throwaway databases of that PostgreSQL server and
// that Redis (under a key prefix of their own).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startBuiltService, type BuiltService } from '@stdreg/server-kit/testing';
import { startWithNpmStart } from './npm-start';

const SERVICES = ['identity', 'standards-api', 'mcp-gateway'] as const;
type Service = (typeof SERVICES)[number];

export interface Platform {
  identityUrl: string;
  standardsApiUrl: string;
  mcpUrl: string;
  platformKey: string;
  databases: 'server' | 'embedded';
  /** Ends the services' PostgreSQL connections from the server side (a `server` database only); how many ended. */
  dropDatabaseConnections(): Promise<number>;
  stop(): Promise<void>;
}

/** `env` adds settings to every service (e.g. identity's agent-registration policy and the CA it trusts). */
export async function startPlatform(env: Record<string, string> = {}): Promise<Platform> {
  if (!process.env['DATABASE_URL']) {
    const platform = await startWithNpmStart(env);
    return { ...platform, databases: 'embedded', dropDatabaseConnections: async () => 0 };
  }
  return startOnDatabaseServer(env);
}

async function startOnDatabaseServer(extra: Record<string, string>): Promise<Platform> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-e2e-'));
  const identityDb = await createTestDatabase('e2e_identity');
  const standardsDb = await createTestDatabase('e2e_standards');
  const ports = { identity: await freePort(), 'standards-api': await freePort(), 'mcp-gateway': await freePort() };
  const urls = Object.fromEntries(SERVICES.map((s) => [s, `http://127.0.0.1:${ports[s]}`])) as Record<Service, string>;
  const serviceToken = randomBytes(32).toString('base64url');
  const redisUrl = process.env['REDIS_URL'];
  // As npm start and the deploy files wire them: the gateway names identity's issuer to agents, and
  // identity issues agent tokens for the gateway's MCP URL.
  const issuer = `${urls.identity}/oidc`;
  const mcpResourceUrl = `${urls['mcp-gateway']}/mcp`;
  const common = {
    PATH: process.env['PATH'] ?? '',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    IDENTITY_URL: urls.identity,
    STANDARDS_API_URL: urls['standards-api'],
    IDENTITY_SERVICE_TOKEN: serviceToken,
    OIDC_ISSUER: issuer,
    ...extra,
  };
  const env: Record<Service, Record<string, string>> = {
    identity: {
      ...common,
      IDENTITY_PORT: String(ports.identity),
      DATA_DIR: path.join(dataDir, 'identity'),
      BOOTSTRAP_PLATFORM_KEY: 'auto',
      DECISION_SERVICE_TOKENS: `standards-api:${serviceToken}`,
      OIDC_MCP_RESOURCE: mcpResourceUrl,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      ...identityDb.env,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `e2e:${randomBytes(6).toString('hex')}:` } : {}),
    },
    'standards-api': {
      ...common,
      STANDARDS_API_PORT: String(ports['standards-api']),
      DATA_DIR: path.join(dataDir, 'standards-api'),
      ...standardsDb.env,
    },
    'mcp-gateway': {
      ...common,
      MCP_GATEWAY_PORT: String(ports['mcp-gateway']),
      MCP_RESOURCE_URL: mcpResourceUrl,
      DATA_DIR: path.join(dataDir, 'mcp-gateway'),
    },
  };
  const running: BuiltService[] = [];
  const stop = async () => {
    await Promise.all(running.map((service) => service.stop()));
    await Promise.all([identityDb.drop(), standardsDb.drop()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (const service of SERVICES) running.push(await startBuiltService(service, ports[service], env[service]));
    const platformKey = (await readFile(path.join(dataDir, 'identity', 'bootstrap-platform-key'), 'utf8')).trim();
    return {
      identityUrl: urls.identity,
      standardsApiUrl: urls['standards-api'],
      mcpUrl: mcpResourceUrl,
      platformKey,
      databases: 'server',
      dropDatabaseConnections: async () => (await identityDb.dropConnections()) + (await standardsDb.dropConnections()),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
