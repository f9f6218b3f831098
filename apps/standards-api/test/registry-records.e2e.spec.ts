import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { samplePackDirectory } from '@stdreg/registry-content';
import { ContentImportService } from '../src/content-import/content-import.service';
import { RegistryRelease } from '../src/registry/registry-release';
import { RegistryService } from '../src/registry/registry.service';
import { CONTENT_TABLES } from '../src/registry-storage/registry.repository';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// Issue 30: standards-api keeps in memory the keys, the index and a bounded cache of representations of the
// release; the records themselves are read from the database, by release.
let api: RunningStandardsApi;
let workDir: string;
let packs = 0;

/** A copy of the sample pack as another release (its own pack version), edited. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test fixture edits arbitrary pack JSON
async function importRelease(edits: Record<string, (value: any) => void> = {}): Promise<string> {
  const directory = path.join(workDir, `pack-${++packs}`);
  await cp(samplePackDirectory(), directory, { recursive: true });
  const packVersion = `2027.1.${packs}`;
  for (const [file, edit] of Object.entries({
    ...edits,
    'pack.json': (meta: { packVersion: string }) => (meta.packVersion = packVersion),
  })) {
    const filePath = path.join(directory, file);
    const value = JSON.parse(await readFile(filePath, 'utf8'));
    edit(value);
    await writeFile(filePath, JSON.stringify(value, null, 2));
  }
  const outcome = await api.app.get(ContentImportService).importPack(directory);
  expect(outcome).toMatchObject({ status: 'imported', packVersion });
  return packVersion;
}

const registry = () => api.app.get(RegistryService);
const get = (urlPath: string) => request(api.server).get(`/api/v2${urlPath}`);
const currentSequence = async () =>
  (await api.dataSource.query('SELECT max(sequence)::text AS sequence FROM content_release'))[0].sequence as string;

beforeAll(async () => {
  api = await startStandardsApi({ CONTENT_REFRESH_SECONDS: '3600' });
  workDir = await mkdtemp(path.join(tmpdir(), 'stdreg-records-'));
});
afterAll(async () => {
  await api.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('registry records', () => {
  it('reads a record from the database when a request first asks for it', async () => {
    await api.dataSource.query(
      `UPDATE task_spec SET doc = jsonb_set(doc, '{title,en}', '"Changed in the database"')
        WHERE release = (SELECT max(sequence) FROM content_release) AND task_code = 'TSK-010'`,
    );
    const { body } = await get('/tasks/TSK-010').expect(200);
    expect(body.title.en).toBe('Changed in the database');
  });

  it('holds as many records in memory for a release of 5 000 more terms as for the sample', async () => {
    const release = registry().currentRelease()!;
    const held = release.recordsHeld;
    await importRelease({
      'terms.json': (terms: unknown[]) => {
        for (let n = 0; n < 5_000; n++) {
          terms.push({
            termId: `zz-more-${n}`,
            term: { en: `More term ${n}`, 'zh-Hans': `更多术语${n}` },
            definition: { en: `Another generated term, ${n}.`, 'zh-Hans': `第${n}个。` },
            synonyms: { en: [], 'zh-Hans': [] },
          });
        }
      },
    });
    await registry().refreshIfChanged();
    const larger = registry().currentRelease()!;
    expect(larger).not.toBe(release);
    expect(larger.termIds.length).toBe(release.termIds.length + 5_000);
    expect(larger.recordsHeld).toBe(held);
    const { body } = await get(
      `/terms?limit=2&cursor=${Buffer.from(JSON.stringify(['terms', 'zz-more-997'])).toString('base64url')}`,
    ).expect(200);
    expect(body.items.map((t: { termId: string }) => t.termId)).toEqual(['zz-more-998', 'zz-more-999']);
    expect(body.items[0].definition.en).toBe('Another generated term, 998.');
    const { body: found } = await request(api.server)
      .post('/api/v2/search')
      .send({ q: 'More term 4321', in: 'terms', limit: 1 })
      .expect(200);
    expect(found.hits[0].term).toMatchObject({ termId: 'zz-more-4321', definition: { en: 'Another generated term, 4321.' } });
  });

  it('serves the release it switched to, and the one before until then, each with its own records', async () => {
    const before = await get('/tasks/TSK-011').expect(200);
    const packVersion = await importRelease({
      'tasks.json': (tasks: { taskCode: string; title: { en: string } }[]) => {
        tasks.find((t) => t.taskCode === 'TSK-012')!.title.en = 'Retitled in the new release';
        tasks.find((t) => t.taskCode === 'TSK-011')!.title.en = 'Also retitled';
      },
    });
    // Not switched yet: a record first asked for now is the old release's, though the new one is stored.
    const { body: old } = await get('/tasks/TSK-012').expect(200);
    expect(old.title.en).not.toBe('Retitled in the new release');
    await get('/tasks/TSK-011')
      .set('If-None-Match', before.headers['etag'] as string)
      .expect(304);

    await registry().refreshIfChanged();
    const { body: manifest } = await get('/manifest').expect(200);
    expect(manifest.provenance.packVersion).toBe(packVersion);
    const { body: switched } = await get('/tasks/TSK-012').expect(200);
    expect(switched.title.en).toBe('Retitled in the new release');
    const after = await get('/tasks/TSK-011')
      .set('If-None-Match', before.headers['etag'] as string)
      .expect(200);
    expect(after.body.title.en).toBe('Also retitled');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
  });

  it('drops the representations of the release serving before it builds the next one, and serves on meanwhile', async () => {
    await get('/tasks/TSK-014').expect(200);
    await get('/terms?limit=5').expect(200);
    expect(registry().cachedRepresentations.entries).toBeGreaterThan(0);
    await importRelease();
    const load = RegistryRelease.load;
    const heldWhenBuilding: number[] = [];
    RegistryRelease.load = async (repository, stored) => {
      heldWhenBuilding.push(registry().cachedRepresentations.entries);
      // The release serving still answers while the next one is built, from the database.
      await get('/tasks/TSK-014').expect(200);
      return load.call(RegistryRelease, repository, stored);
    };
    try {
      await registry().refreshIfChanged();
    } finally {
      RegistryRelease.load = load;
    }
    expect(heldWhenBuilding).toEqual([0]);
    expect(registry().currentRelease()!.sequence).toBe(await currentSequence());
  });

  it('keeps the records of the current release and of the one before it only', async () => {
    const previous = await currentSequence();
    await importRelease();
    const current = await currentSequence();
    for (const table of CONTENT_TABLES) {
      const rows: { release: string }[] = await api.dataSource.query(`SELECT DISTINCT release::text AS release FROM ${table} ORDER BY 1`);
      expect(rows.map((r) => r.release).sort()).toEqual([previous, current].sort());
    }
    await registry().refreshIfChanged();
  });

  it('switches at once when the records of the release it serves are gone, and answers from the current one', async () => {
    const served = registry().currentRelease()!.sequence;
    await importRelease();
    const packVersion = await importRelease({
      'tasks.json': (tasks: { taskCode: string; title: { en: string } }[]) => {
        tasks.find((t) => t.taskCode === 'TSK-013')!.title.en = 'Two releases later';
      },
    });
    const [{ count }] = await api.dataSource.query('SELECT count(*)::int AS count FROM task_spec WHERE release = $1', [served]);
    expect(count).toBe(0);
    const { body } = await get('/tasks/TSK-013').expect(200);
    expect(body.title.en).toBe('Two releases later');
    expect(registry().currentRelease()!.sequence).toBe(await currentSequence());
    const { body: manifest } = await get('/manifest').expect(200);
    expect(manifest.provenance.packVersion).toBe(packVersion);
  });

  it('answers a search from the current release when the records of the one it serves are gone', async () => {
    const served = registry().currentRelease()!.sequence;
    const sample = JSON.parse(await readFile(path.join(samplePackDirectory(), 'terms.json'), 'utf8')) as {
      termId: string;
      term: { en: string };
    }[];
    const searched = sample[0]!;
    await importRelease();
    await importRelease({
      'terms.json': (terms: { termId: string; definition: { en: string } }[]) => {
        terms.find((t) => t.termId === searched.termId)!.definition.en = 'Searched two releases later';
      },
    });
    const [{ count }] = await api.dataSource.query('SELECT count(*)::int AS count FROM term WHERE release = $1', [served]);
    expect(count).toBe(0);
    const { body } = await request(api.server).post('/api/v2/search').send({ q: searched.term.en, in: 'terms', limit: 5 }).expect(200);
    const hit = (body.hits as { term: { termId: string; definition: { en: string } } }[]).find((h) => h.term.termId === searched.termId);
    expect(hit?.term.definition.en).toBe('Searched two releases later');
    expect(registry().currentRelease()!.sequence).toBe(await currentSequence());
  });
});
