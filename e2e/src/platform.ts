// The three services as they ship. On the embedded defaults: exactly as `npm start` runs them (its
// own program, tools/start.mjs). With DATABASE_URL and REDIS_URL set: their built artifacts in child
// processes, wired as the deploy files wire them, on throwaway databases of that PostgreSQL server and
// that Redis (under a key prefix of their own).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { createTestDatabase, freePort, startBuiltService, type BuiltService, type CuttableProxy } from '@stdreg/server-kit/testing';
import { startWithNpmStart } from './npm-start';

export const SERVICES = ['identity', 'standards-api', 'mcp-gateway'] as const;
export type Service = (typeof SERVICES)[number];

export interface Platform {
  identityUrl: string;
  standardsApiUrl: string;
  mcpUrl: string;
  platformKey: string;
  databases: 'server' | 'embedded';
  /** Where identity's and standards-api's databases can be reached from outside (a server's databases, or the embedded ones' sockets). */
  databaseConnections(): Promise<pg.ClientConfig[]>;
  /**
   * Ends the services' database connections, as a failing network would; how many ended. On a server:
   * from the server side. Embedded: the first call puts a proxy in the place of each database's socket
   * (connections made from then on go through it) and each call drops what is open through the proxies.
   */
  dropDatabaseConnections(): Promise<number>;
  /**
   * The services `restart` takes down: on a server, identity alone; embedded, all three, because
   * `npm start` stops them all when one exits (as Ctrl-C does).
   */
  restarts: Service[];
  /** Restarts `restarts` on their ports, data and databases; resolves when they are ready again. */
  restart(): Promise<void>;
  /**
   * On a server only: stops all three services and starts them again on their ports, data folders and settings,
   * with `databases` in place of identity's and standards-api's (e.g. copies restored from a backup) and
   * `identitySettings` added to identity's (e.g. another DATA_DIR).
   */
  restartOnDatabases?(databases: Record<'identity' | 'standards-api', string>, identitySettings?: Record<string, string>): Promise<void>;
  /**
   * On a server only: stops all three services and starts them again on their ports, data folders, settings and
   * databases from another checkout's build (`root`, e.g. the release before, for an upgrade check), or this one's;
   * `meanwhile` runs while all three are stopped (e.g. migrations' downs).
   */
  restartFrom?(root?: string, meanwhile?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `env` adds settings to every service (e.g. identity's agent-registration policy and the CA it trusts); the
 * services' logs (and, embedded, all `npm start` prints) are appended to `logFile` when given. `root` (on a server
 * only): start another checkout's build, e.g. the release before.
 */
export async function startPlatform(
  env: Record<string, string> = {},
  options: { logFile?: string; root?: string } = {},
): Promise<Platform> {
  if (!process.env['DATABASE_URL']) {
    const platform = await startWithNpmStart(env, options);
    const databaseConnections = async () =>
      (await platform.databaseSocketDirs()).map((host) => ({ host, port: 5432, user: 'postgres', database: 'postgres' }));
    let proxies: CuttableProxy[] | undefined;
    return {
      ...platform,
      databases: 'embedded',
      databaseConnections,
      dropDatabaseConnections: async () => {
        proxies ??= await platform.interposeOnDatabases();
        const open = proxies.reduce((sum, proxy) => sum + proxy.openConnections, 0);
        for (const proxy of proxies) {
          await proxy.cut();
          await proxy.restore();
        }
        return open;
      },
      restarts: [...SERVICES],
      restart: async () => {
        await platform.restart();
        // The databases' sockets are new: proxies in their place again if there were proxies before.
        if (proxies) proxies = await platform.interposeOnDatabases();
      },
    };
  }
  return startOnDatabaseServer(env, options.logFile, options.root);
}

async function startOnDatabaseServer(
  extra: Record<string, string>,
  logFile: string | undefined,
  firstRoot: string | undefined,
): Promise<Platform> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-e2e-'));
  const identityDb = await createTestDatabase('e2e_identity');
  const standardsDb = await createTestDatabase('e2e_standards');
  const ports = { identity: await freePort(), 'standards-api': await freePort(), 'mcp-gateway': await freePort() };
  const urls = Object.fromEntries(SERVICES.map((s) => [s, `http://127.0.0.1:${ports[s]}`])) as Record<Service, string>;
  // A caller may name the services' credential (as with `npm start`), e.g. to call identity's decision endpoint itself.
  const serviceToken = extra['IDENTITY_SERVICE_TOKEN'] ?? randomBytes(32).toString('base64url');
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
      // To observe it, e.g. `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/heap` (docs/reliability.md).
      ...(process.env['E2E_STANDARDS_API_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['E2E_STANDARDS_API_NODE_OPTIONS'] } : {}),
    },
    'mcp-gateway': {
      ...common,
      MCP_GATEWAY_PORT: String(ports['mcp-gateway']),
      MCP_RESOURCE_URL: mcpResourceUrl,
      DATA_DIR: path.join(dataDir, 'mcp-gateway'),
    },
  };
  const running = new Map<Service, BuiltService>();
  let root = firstRoot;
  const start = (service: Service) =>
    startBuiltService(service, ports[service], env[service], { ...(logFile ? { logFile } : {}), ...(root ? { root } : {}) });
  const stop = async () => {
    await Promise.all([...running.values()].map((service) => service.stop()));
    await Promise.all([identityDb.drop(), standardsDb.drop()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (const service of SERVICES) running.set(service, await start(service));
    const platformKey = (await readFile(path.join(dataDir, 'identity', 'bootstrap-platform-key'), 'utf8')).trim();
    return {
      identityUrl: urls.identity,
      standardsApiUrl: urls['standards-api'],
      mcpUrl: mcpResourceUrl,
      platformKey,
      databases: 'server',
      databaseConnections: async () => [identityDb, standardsDb].map((db) => ({ connectionString: db.env['DATABASE_URL']! })),
      dropDatabaseConnections: async () => (await identityDb.dropConnections()) + (await standardsDb.dropConnections()),
      restarts: ['identity'],
      restart: async () => {
        await running.get('identity')!.stop();
        running.set('identity', await start('identity'));
      },
      restartOnDatabases: async (databases, identitySettings = {}) => {
        await Promise.all([...running.values()].map((service) => service.stop()));
        running.clear();
        Object.assign(env.identity, identitySettings);
        env.identity.DATABASE_URL = databases.identity;
        env['standards-api'].DATABASE_URL = databases['standards-api'];
        for (const service of SERVICES) running.set(service, await start(service));
      },
      restartFrom: async (otherRoot, meanwhile) => {
        await Promise.all([...running.values()].map((service) => service.stop()));
        running.clear();
        await meanwhile?.();
        root = otherRoot;
        for (const service of SERVICES) running.set(service, await start(service));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
