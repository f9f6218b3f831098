import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@stdreg/server-kit/testing';
import { startCallback } from '../../src/human-sign-in';
import { startPlatform, type Platform } from '../../src/platform';
import { dayOfWork, expectRestored, writeAfterBackup, type BeforeBackup } from '../../src/restore-drill';

// The operator's restore drill on PostgreSQL, as the README's "Back up and restore" section tells it: after a day's
// work, each service's database is dumped with pg_dump (custom format) while the services run, the dumps are restored
// into new databases with pg_restore, and the three services start on the restored databases with the same settings
// (identity's DATA_DIR included: it holds the sign-in secrets generated when they are not set).
const run = promisify(execFile);

let platform: Platform;
let callback: Awaited<ReturnType<typeof startCallback>>;
let before: BeforeBackup | undefined;
let dumps: string;
let restoredUrls: Record<'identity' | 'standards-api', string>;
const restored: TestDatabase[] = [];

beforeAll(async () => {
  dumps = await mkdtemp(path.join(tmpdir(), 'stdreg-restore-drill-'));
  platform = await startPlatform({}, { logFile: path.join(dumps, 'services.log') });
  callback = await startCallback();
}, 180_000);
afterAll(async () => {
  await before?.receiver.close();
  await callback?.close();
  await platform?.stop();
  for (const database of restored) await database.drop();
  if (dumps) await rm(dumps, { recursive: true, force: true });
});

async function dumpAndRestore(database: string, name: string): Promise<string> {
  const file = path.join(dumps, `${name}.dump`);
  await run('pg_dump', ['--format=custom', `--file=${file}`, database]);
  const target = await createTestDatabase(`e2e_restored_${name}`);
  restored.push(target);
  const url = target.env['DATABASE_URL']!;
  await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${url}`, file]);
  return url;
}

it('restores both databases from pg_dump into new ones, and all that was issued before the backup works after it', async () => {
  before = await dayOfWork(platform, callback.redirectUri);
  const [identityDb, standardsDb] = (await platform.databaseConnections()).map((connection) => connection.connectionString!);
  // standards-api's first (README): an event handed over between the two dumps is then in both, never in neither.
  const standardsApi = await dumpAndRestore(standardsDb!, 'standards_api');
  restoredUrls = { identity: await dumpAndRestore(identityDb!, 'identity'), 'standards-api': standardsApi };
  const afterBackup = await writeAfterBackup(platform, before);

  await platform.restartOnDatabases!(restoredUrls);

  await expectRestored(platform, before, afterBackup);
}, 120_000);

it('refuses to start identity on the restored database without the secrets it was sealed with, and says which', async () => {
  // An operator who restored the databases but not identity's DATA_DIR (its oidc-secrets.json, as OIDC_* are unset here).
  await expect(platform.restartOnDatabases!(restoredUrls, { DATA_DIR: path.join(dumps, 'identity-without-its-secrets') })).rejects.toThrow(
    'identity did not become ready',
  );
  const log = await readFile(path.join(dumps, 'services.log'), 'utf8');
  expect(log).toContain('OIDC_CLIENT_SECRET_KEY: does not open the secrets this database holds sealed');
  expect(log).toContain('oidc-secrets.json');
}, 120_000);
