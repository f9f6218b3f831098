import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, ROOT, type TestDatabase } from '@stdreg/server-kit/testing';
import { startWithNpmStart } from '../../src/npm-start';

// `npm start` against a real PostgreSQL, as the README says: identity and standards-api each in a database of its own
// (both have an `event_outbox`, and each its own migrations), the gateway in none.
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

async function database(prefix: string): Promise<string> {
  const created = await createTestDatabase(prefix);
  databases.push(created);
  return created.env['DATABASE_URL']!;
}

async function lastMigration(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL ORDER BY id DESC LIMIT 1`,
    );
    return rows[0]?.name ?? null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/** The newest of an app's migrations, as its name ends: the files are named by their 13-digit timestamps. */
async function newestMigrationOf(app: 'identity' | 'standards-api'): Promise<RegExp> {
  const files = (await readdir(path.join(ROOT, 'apps', app, 'src', 'migrations'))).filter((file) => /^\d{13}-.+\.ts$/.test(file)).sort();
  return new RegExp(`^[A-Za-z]+${files.at(-1)!.slice(0, 13)}$`);
}

it('runs identity and standards-api each on its own database, both migrated', async () => {
  const identityDatabase = await database('npm_start_identity');
  const standardsDatabase = await database('npm_start_standards');
  const platform = await startWithNpmStart({ IDENTITY_DATABASE_URL: identityDatabase, STANDARDS_API_DATABASE_URL: standardsDatabase });
  try {
    expect((await fetch(`${platform.standardsApiUrl}/api/v2/standards/RUL-3`)).status).toBe(200);
    expect((await fetch(`${platform.identityUrl}/v1/keys`, { headers: { Authorization: `Bearer ${platform.platformKey}` } })).status).toBe(
      200,
    );
  } finally {
    await platform.stop();
  }
  expect(await lastMigration(identityDatabase)).toMatch(await newestMigrationOf('identity'));
  expect(await lastMigration(standardsDatabase)).toMatch(await newestMigrationOf('standards-api'));
}, 240_000);

it('refuses one DATABASE_URL for every service, naming the two settings, and touches that database not at all', async () => {
  const shared = await database('npm_start_shared');
  await expect(startWithNpmStart({ DATABASE_URL: shared })).rejects.toThrow(/IDENTITY_DATABASE_URL and STANDARDS_API_DATABASE_URL/);
  expect(await lastMigration(shared)).toBeNull();
}, 240_000);
