// CI runs this spec once, in the embedded run: it opens its own in-memory PGlite (memory://) whatever DATABASE_URL says.
import { chmod, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { openDatabase, type DatabaseHandle } from '../src/database';

// A throwaway embedded database starts from a stored image of its service's migrated schema: the
// schema is there, what an earlier database wrote is not, and an image is never taken from a folder
// another user could have written.

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE note');
  }
}

class CreateNotesWithTitles1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL, title text)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE note');
  }
}

const noteColumns = (database: DatabaseHandle) =>
  database.dataSource
    .query<{ column_name: string }[]>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'note' ORDER BY ordinal_position",
    )
    .then((rows) => rows.map((row) => row.column_name));

describe('throwaway embedded databases from stored images', () => {
  let temporary: string;
  const opened: DatabaseHandle[] = [];
  const open = async (migration: new () => MigrationInterface) => {
    const imagesFolder = path.join(temporary, 'images');
    const database = await openDatabase({ service: 'notes', dataDir: 'memory://', entities: [], migrations: [migration], imagesFolder });
    opened.push(database);
    return database;
  };
  const images = () => readdir(path.join(temporary, 'images')).catch(() => []);

  beforeEach(async () => {
    temporary = await mkdtemp(path.join(tmpdir(), 'images-spec-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
    await rm(temporary, { recursive: true, force: true });
  });

  it('starts the second database from the first one’s migrated schema, without the first one’s rows', async () => {
    const first = await open(CreateNotes1700000000000);
    expect(first.startedFromSchemaImage).toBe(false);
    expect((await images()).sort()).toEqual([expect.stringMatching(/-cluster\.tar$/), expect.stringMatching(/-notes-[0-9a-f]{16}\.tar$/)]);
    await first.dataSource.query("INSERT INTO note VALUES (1, 'written by the first')");

    const second = await open(CreateNotes1700000000000);
    expect(second.startedFromSchemaImage).toBe(true);
    await expect(second.dataSource.query('SELECT count(*)::int AS notes FROM note')).resolves.toEqual([{ notes: 0 }]);
    await expect(second.dataSource.query('SELECT name FROM schema_migrations')).resolves.toEqual([{ name: 'CreateNotes1700000000000' }]);
    await expect(first.dataSource.query('SELECT count(*)::int AS notes FROM note')).resolves.toEqual([{ notes: 1 }]);
  });

  it('migrates afresh when a migration’s source changed under the same name', async () => {
    await open(CreateNotes1700000000000);
    const edited = await open(CreateNotesWithTitles1700000000000);
    expect(edited.startedFromSchemaImage).toBe(false);
    await expect(noteColumns(edited)).resolves.toEqual(['id', 'body', 'title']);
    expect((await images()).filter((name) => name.includes('-notes-'))).toHaveLength(2);
  });

  it('drops what nobody used for a day when it stores an image, and keeps what is in use', async () => {
    const folder = path.join(temporary, 'images');
    await mkdir(folder, { mode: 0o700 });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const name of ['0.1.0-other-0123456789abcdef.tar', 'x.tar.4242.partial', 'recent-0123456789abcdef.tar']) {
      await writeFile(path.join(folder, name), 'left behind');
      if (name !== 'recent-0123456789abcdef.tar') await utimes(path.join(folder, name), twoDaysAgo, twoDaysAgo);
    }
    await open(CreateNotes1700000000000);
    expect((await images()).sort()).toEqual([
      expect.stringMatching(/-cluster\.tar$/),
      expect.stringMatching(/-notes-[0-9a-f]{16}\.tar$/),
      'recent-0123456789abcdef.tar',
    ]);
  });

  it('neither reads nor writes images in a folder others can write to', async () => {
    await open(CreateNotes1700000000000);
    const folder = path.join(temporary, 'images');
    await Promise.all((await images()).map((name) => rm(path.join(folder, name))));
    await chmod(folder, 0o777);

    const database = await open(CreateNotes1700000000000);
    expect(database.startedFromSchemaImage).toBe(false);
    await expect(noteColumns(database)).resolves.toEqual(['id', 'body']);
    expect(await images()).toEqual([]);
  });
});
