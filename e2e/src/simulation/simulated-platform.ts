// identity and standards-api as built, on throwaway databases of one PostgreSQL server, with the
// handles the simulation's faults need: standards-api can be SIGKILLed and restarted on the same
// database, its database connections ended from the server side, and identity (as standards-api
// sees it) slowed down through a proxy.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHECKER_APPLICATION_NAME, withDatabase } from './database';
import { createTestDatabase, CuttableProxy, freePort, startBuiltService, type BuiltService } from '@stdreg/server-kit/testing';

export interface SimulatedPlatform {
  identityUrl: string;
  standardsApiUrl: string;
  platformKey: string;
  /** standards-api's database and identity's, for the invariant checks' SQL. */
  standardsDatabaseUrl: string;
  identityDatabaseUrl: string;
  /** SIGKILL standards-api (no shutdown hooks; requests in flight are cut). */
  killStandardsApi(): Promise<void>;
  /** Starts standards-api again on the same port and database and waits until it is ready. */
  restartStandardsApi(): Promise<void>;
  /** Ends standards-api's PostgreSQL connections from the server side; answers how many ended. */
  dropStandardsConnections(): Promise<number>;
  /** The last error lines standards-api logged (for a failure's report). */
  standardsApiErrors(): Promise<string[]>;
  /** identity's answers to standards-api are held this long per chunk (0: none). */
  slowIdentity(ms: number): void;
  stop(): Promise<void>;
}

/** Both services on the PostgreSQL server of DATABASE_URL (and the Redis of REDIS_URL, when set). */
export async function startSimulatedPlatform(): Promise<SimulatedPlatform> {
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-simulation-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const identityDb = await createTestDatabase('sim_identity');
    cleanups.push(() => identityDb.drop());
    const standardsDb = await createTestDatabase('sim_standards');
    cleanups.push(() => standardsDb.drop());
    if (identityDb.kind !== 'server' || standardsDb.kind !== 'server') throw new Error('the simulation needs DATABASE_URL');

    const serviceToken = randomBytes(32).toString('base64url');
    const identityPort = await freePort();
    const redisUrl = process.env['REDIS_URL'];
    const identity = await startBuiltService('identity', identityPort, {
      HOST: '127.0.0.1',
      IDENTITY_PORT: String(identityPort),
      DATA_DIR: path.join(dataDir, 'identity'),
      BOOTSTRAP_PLATFORM_KEY: 'auto',
      DECISION_SERVICE_TOKENS: `standards-api:${serviceToken}`,
      ...identityDb.env,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `sim:${randomBytes(6).toString('hex')}:` } : {}),
    });
    cleanups.push(identity.stop);
    const platformKey = (await readFile(path.join(dataDir, 'identity', 'bootstrap-platform-key'), 'utf8')).trim();

    const identityProxy = await CuttableProxy.start(identity.url);
    cleanups.push(() => identityProxy.close());
    const standardsPort = await freePort();
    const standardsEnv = {
      HOST: '127.0.0.1',
      STANDARDS_API_PORT: String(standardsPort),
      DATA_DIR: path.join(dataDir, 'standards-api'),
      IDENTITY_URL: identityProxy.through(identity.url).replace(/\/$/, ''),
      IDENTITY_SERVICE_TOKEN: serviceToken,
      // A long run drafts more projects in one organization than people activate (the bounds have specs of their own).
      SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '100000',
      SPLIT_PROJECT_MAX_SCENARIOS: '10000',
      ...standardsDb.env,
    };
    const logFile = path.join(dataDir, 'standards-api.log');
    let standardsApi: BuiltService = await startBuiltService('standards-api', standardsPort, standardsEnv, { logFile });
    cleanups.push(() => standardsApi.stop());

    return {
      identityUrl: identity.url,
      standardsApiUrl: standardsApi.url,
      platformKey,
      standardsDatabaseUrl: standardsDb.env['DATABASE_URL']!,
      identityDatabaseUrl: identityDb.env['DATABASE_URL']!,
      killStandardsApi: () => standardsApi.kill(),
      restartStandardsApi: async () => {
        standardsApi = await startBuiltService('standards-api', standardsPort, standardsEnv, { logFile });
      },
      dropStandardsConnections: () => endConnectionsOfService(standardsDb.env['DATABASE_URL']!),
      standardsApiErrors: async () =>
        (await readFile(logFile, 'utf8'))
          .split('\n')
          .filter((line) => line.includes('"level":"error"'))
          .slice(-3),
      slowIdentity: (ms) => identityProxy.setLatency(ms),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Ends the service's connections to its database from the server side; the checker's own stay. */
async function endConnectionsOfService(databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const ended = await withDatabase(process.env['DATABASE_URL']!, (query) =>
    query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2',
      [name, CHECKER_APPLICATION_NAME],
    ),
  );
  return ended.filter((row) => row.ended).length;
}
