import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { samplePackDirectory } from '@stdreg/registry-content';
import { ContentImportService } from '../src/content-import/content-import.service';
import { RegistryService } from '../src/registry/registry.service';
import { RegistryRepository } from '../src/registry-storage/registry.repository';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

let api: RunningStandardsApi;

interface TermPage {
  items: Array<{ termId: string }>;
  nextCursor: string | null;
}
let workDir: string;

async function copyOfSamplePack(name: string): Promise<string> {
  const directory = path.join(workDir, name);
  await cp(samplePackDirectory(), directory, { recursive: true });
  return directory;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test fixture edits arbitrary pack JSON
async function editJson(directory: string, file: string, edit: (value: any) => void): Promise<void> {
  const filePath = path.join(directory, file);
  const value = JSON.parse(await readFile(filePath, 'utf8'));
  edit(value);
  await writeFile(filePath, JSON.stringify(value, null, 2));
}

async function databaseState(): Promise<string> {
  const rows = await api.dataSource.query(`
    SELECT (SELECT count(*) FROM content_release) AS releases,
           (SELECT max(digest) FILTER (WHERE sequence = (SELECT max(sequence) FROM content_release)) FROM content_release) AS digest,
           (SELECT count(*) FROM standard_block_version) AS blocks,
           (SELECT count(*) FROM term) AS terms,
           (SELECT count(*) FROM task_spec) AS tasks,
           (SELECT md5(string_agg(doc::text, '' ORDER BY term_id)) FROM term) AS terms_hash`);
  return JSON.stringify(rows[0]);
}

beforeAll(async () => {
  api = await startStandardsApi({ CONTENT_REFRESH_SECONDS: '3600' });
  workDir = await mkdtemp(path.join(tmpdir(), 'stdreg-packs-'));
});
afterAll(async () => {
  await api.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('content import', () => {
  it('imported the sample pack on first start, and importing it again changes nothing', async () => {
    const before = await databaseState();
    const outcome = await api.app.get(ContentImportService).importPack(samplePackDirectory());
    expect(outcome.status).toBe('unchanged');
    expect(await databaseState()).toBe(before);
  });

  it('refuses an invalid pack with precise errors and leaves the database as it was', async () => {
    const broken = await copyOfSamplePack('broken');
    await editJson(broken, 'terms.json', (terms) => {
      delete terms[2].definition['zh-Hans'];
      terms[4].related = ['no-such-term'];
    });
    await editJson(broken, 'tasks.json', (tasks) => {
      tasks[1].standards = ['ZZZ-1@1.0'];
    });
    await writeFile(path.join(broken, 'brand.json'), '{ not json');
    const before = await databaseState();
    const outcome = await api.app.get(ContentImportService).importPack(broken);
    expect(outcome).toEqual({
      status: 'refused',
      issues: [
        { file: 'brand.json', path: '', message: expect.stringMatching(/^is not valid JSON/) },
        { file: 'terms.json', path: '/2/definition/zh-Hans', message: 'is missing: every localized field needs both en and zh-Hans' },
      ],
    });
    expect(await databaseState()).toBe(before);
  });

  it('refuses a first start on a pack it cannot import, naming the pack and what is wrong with it', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'stdreg-empty-pack-'));
    try {
      await expect(startStandardsApi({ CONTENT_PACK_DIR: empty })).rejects.toThrow(
        new RegExp(`the content pack in ${empty} was refused:\\n.*: file is missing(.|\\n)*\\(and \\d+ more\\)`),
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('refuses cross-reference problems once the files are sound, still changing nothing', async () => {
    const broken = await copyOfSamplePack('dangling');
    await editJson(broken, 'tasks.json', (tasks) => {
      tasks[1].standards = ['ZZZ-1@1.0'];
    });
    const before = await databaseState();
    const outcome = await api.app.get(ContentImportService).importPack(broken);
    expect(outcome).toEqual({
      status: 'refused',
      issues: [{ file: 'tasks.json', path: '/1/standards/0', message: 'cites unknown standards block version "ZZZ-1@1.0"' }],
    });
    expect(await databaseState()).toBe(before);
  });

  it('imports a changed pack as a new release, and the API serves it, its search index rebuilt, with a new digest and ETag', async () => {
    const { body: oldManifest, headers: oldHeaders } = await request(api.server).get('/api/v2/manifest').expect(200);
    const changed = await copyOfSamplePack('changed');
    await editJson(changed, 'pack.json', (meta) => {
      meta.packVersion = '2026.12.0';
    });
    await editJson(changed, 'terms.json', (terms) => {
      terms[0].definition.en += ' (revised)';
      terms[0].designations.en.push('quuxbasis');
    });
    const outcome = await api.app.get(ContentImportService).importPack(changed);
    expect(outcome).toMatchObject({ status: 'imported', packVersion: '2026.12.0' });
    const { body: notYet } = await request(api.server).get('/api/v2/terms?q=quuxbasis').expect(200);
    expect(notYet.items).toEqual([]);

    await api.app.get(RegistryService).refreshIfChanged();
    const { body: searched } = await request(api.server).get('/api/v2/terms?q=quuxbasis').expect(200);
    expect(searched.items.map((t: { termId: string }) => t.termId)).toEqual([
      JSON.parse(await readFile(path.join(changed, 'terms.json'), 'utf8'))[0].termId,
    ]);
    const { body: newManifest, headers: newHeaders } = await request(api.server).get('/api/v2/manifest').expect(200);
    expect(newManifest.digest).not.toBe(oldManifest.digest);
    expect(newManifest.digest).toBe(outcome.status === 'imported' ? outcome.digest : '');
    expect(newManifest.provenance.packVersion).toBe('2026.12.0');
    expect(newHeaders['etag']).not.toBe(oldHeaders['etag']);
    await request(api.server)
      .get('/api/v2/manifest')
      .set('If-None-Match', oldHeaders['etag'] as string)
      .expect(200);
    const releases = await api.dataSource.query('SELECT pack_version FROM content_release ORDER BY sequence');
    expect(releases.map((r: { pack_version: string }) => r.pack_version)).toEqual(['2026.11.0', '2026.12.0']);
  });

  it('keeps the release history append-only in the database itself', async () => {
    await expect(api.dataSource.query(`UPDATE content_release SET publisher = 'someone else'`)).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query('DELETE FROM content_release')).rejects.toThrow(/append-only/);
  });

  it('imports a pack of more records than one statement could bind parameters for, each row as the pack gives it', async () => {
    // 33 000 terms of two columns are 66 000 parameters: more than PostgreSQL's 65 535 for one statement.
    const large = await copyOfSamplePack('large');
    await editJson(large, 'pack.json', (meta) => {
      meta.packVersion = '2026.12.1';
    });
    await editJson(large, 'terms.json', (terms) => {
      for (let n = 0; n < 33_000; n++) {
        terms.push({
          termId: `bulk-term-${n}`,
          term: { en: `Bulk term ${n}`, 'zh-Hans': `批量术语${n}` },
          definition: { en: `Generated term number ${n}.`, 'zh-Hans': `第${n}个生成的术语。` },
          synonyms: { en: [], 'zh-Hans': [] },
        });
      }
    });
    const outcome = await api.app.get(ContentImportService).importPack(large);
    expect(outcome).toMatchObject({ status: 'imported', packVersion: '2026.12.1' });

    const pack = (file: string) => readFile(path.join(large, file), 'utf8').then(JSON.parse);
    const terms = await pack('terms.json');
    const [{ count }] = await api.dataSource.query(
      'SELECT count(*)::int AS count FROM term WHERE release = (SELECT max(sequence) FROM content_release)',
    );
    expect(count).toBe(terms.length);
    const [stored] = await api.dataSource.query(
      `SELECT doc FROM term WHERE release = (SELECT max(sequence) FROM content_release) AND term_id = 'bulk-term-32999'`,
    );
    expect(stored.doc).toEqual(terms.at(-1));
    const blocks = await api.dataSource.query(
      `SELECT section_id AS "sectionId", version, status, effective_from::text AS "effectiveFrom", doc FROM standard_block_version
        WHERE release = (SELECT max(sequence) FROM content_release) ORDER BY section_id, version`,
    );
    const byKey = (a: { sectionId: string; version: string }, b: { sectionId: string; version: string }) =>
      `${a.sectionId}@${a.version}`.localeCompare(`${b.sectionId}@${b.version}`);
    expect(blocks.sort(byKey)).toEqual(
      (await pack('standards.json'))
        .map((doc: { sectionId: string; version: string; status: string; effectiveFrom: string }) => ({
          sectionId: doc.sectionId,
          version: doc.version,
          status: doc.status,
          effectiveFrom: doc.effectiveFrom,
          doc,
        }))
        .sort(byKey),
    );
    const policyVersions = await api.dataSource.query(
      `SELECT policy_id AS "policyId", version, effective_from::text AS "effectiveFrom", effective_to::text AS "effectiveTo", doc
         FROM policy_version WHERE release = (SELECT max(sequence) FROM content_release) ORDER BY policy_id, version`,
    );
    const byPolicyKey = (a: { policyId: string; version: string }, b: { policyId: string; version: string }) =>
      `${a.policyId}@${a.version}`.localeCompare(`${b.policyId}@${b.version}`);
    expect(policyVersions.sort(byPolicyKey)).toEqual(
      (await pack('policies.json'))
        .flatMap((policy: { policyId: string; versions: { version: string; effectiveFrom: string; effectiveTo?: string }[] }) =>
          policy.versions.map((doc) => ({
            policyId: policy.policyId,
            version: doc.version,
            effectiveFrom: doc.effectiveFrom,
            effectiveTo: doc.effectiveTo ?? null,
            doc,
          })),
        )
        .sort(byPolicyKey),
    );
  });

  it('imports a pack that changes nothing but its brand as a new release, and serves that brand', async () => {
    const base = await copyOfSamplePack('brand-before');
    await editJson(base, 'pack.json', (meta) => {
      meta.packVersion = '2026.12.2';
    });
    expect(await api.app.get(ContentImportService).importPack(base)).toMatchObject({ status: 'imported' });
    const rebranded = await copyOfSamplePack('brand-after');
    await editJson(rebranded, 'pack.json', (meta) => {
      meta.packVersion = '2026.12.2';
    });
    await editJson(rebranded, 'brand.json', (brand) => {
      brand.snapshotId = 'brand-2026-12';
    });
    const outcome = await api.app.get(ContentImportService).importPack(rebranded);
    expect(outcome).toMatchObject({ status: 'imported' });
    await api.app.get(RegistryService).refreshIfChanged();
    const { body } = await request(api.server).get('/api/v2/brand/current').expect(200);
    expect(body.snapshotId).toBe('brand-2026-12');
  });

  it('leaves the database as it was when an import is interrupted while writing its records', async () => {
    const pack = await copyOfSamplePack('interrupted');
    await editJson(pack, 'pack.json', (meta) => {
      meta.packVersion = '2026.12.3';
    });
    const before = await databaseState();
    const repository = api.app.get(RegistryRepository) as unknown as Record<'insertContent', (...args: unknown[]) => Promise<void>>;
    const insertContent = repository.insertContent;
    // Every record written, then the connection lost before the commit.
    repository.insertContent = async function (this: unknown, ...args: unknown[]) {
      await insertContent.apply(this, args);
      throw new Error('interrupted');
    };
    try {
      await expect(api.app.get(ContentImportService).importPack(pack)).rejects.toThrow('interrupted');
    } finally {
      repository.insertContent = insertContent;
    }
    expect(await databaseState()).toBe(before);
    expect(await api.app.get(ContentImportService).importPack(pack)).toMatchObject({ status: 'imported', packVersion: '2026.12.3' });
  });

  it('knows the newest release once the sequence gains a digit (10 after 9): serves it, and keeps it while nothing changes', async () => {
    const [{ last }] = await api.dataSource.query('SELECT max(sequence)::int AS last FROM content_release');
    const straddle = 10 ** String(last + 1).length;
    // Releases are numbered by an identity column; it is moved on rather than importing nine packs.
    await api.dataSource.query(`ALTER TABLE content_release ALTER COLUMN sequence RESTART WITH ${straddle - 1}`);
    for (const packVersion of ['2027.1.0', '2027.2.0']) {
      const pack = await copyOfSamplePack(packVersion);
      await editJson(pack, 'pack.json', (meta) => {
        meta.packVersion = packVersion;
      });
      expect(await api.app.get(ContentImportService).importPack(pack)).toMatchObject({ status: 'imported', packVersion });
    }
    expect(await api.app.get(RegistryRepository).currentReleaseSequence()).toBe(String(straddle));
    const service = api.app.get(RegistryService);
    await service.refreshIfChanged();
    const { body } = await request(api.server).get('/api/v2/manifest').expect(200);
    expect(body.provenance.packVersion).toBe('2027.2.0');
    // Nothing changed since: the release served is kept, not loaded again.
    const served = (service as unknown as { release: unknown }).release;
    await service.refreshIfChanged();
    expect((service as unknown as { release: unknown }).release === served).toBe(true);
  });

  /** Every key of a registry list, page after page; stops past `count` keys (a list that pages back on itself). */
  async function walk(list: string, key: string, limit: number, count: number): Promise<string[]> {
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const { body }: { body: { items: Record<string, string>[]; nextCursor: string | null } } = await request(api.server)
        .get(`/api/v2/${list}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      walked.push(...body.items.map((item) => item[key]!));
      cursor = body.nextCursor;
    } while (cursor && walked.length <= count);
    return walked;
  }

  it('pages through split templates in version order once a version number gains a digit (1.10 after 1.9)', async () => {
    const pack = await copyOfSamplePack('templates');
    await editJson(pack, 'pack.json', (meta) => {
      meta.packVersion = '2027.3.0';
    });
    const versions = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '2.0'];
    await editJson(pack, 'split-templates.json', (templates) => {
      const [superseded, current] = [templates.find((t: { status: string }) => t.status === 'superseded'), templates.at(-1)];
      templates.splice(0, templates.length, ...versions.map((version) => ({ ...(version === '2.0' ? current : superseded), version })));
    });
    expect(await api.app.get(ContentImportService).importPack(pack)).toMatchObject({ status: 'imported', packVersion: '2027.3.0' });
    await api.app.get(RegistryService).refreshIfChanged();
    for (const limit of [1, 5]) expect(await walk('split-templates', 'version', limit, versions.length)).toEqual(versions);
    const { body: forged } = await request(api.server)
      .get(`/api/v2/split-templates?cursor=${Buffer.from(JSON.stringify(['split-templates', 'x'])).toString('base64url')}`)
      .expect(400);
    expect(forged.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });

  it('pages through standards blocks with the numbers of their section ids as numbers (RUL-2 before RUL-10)', async () => {
    const pack = await copyOfSamplePack('sections');
    await editJson(pack, 'pack.json', (meta) => {
      meta.packVersion = '2027.4.0';
    });
    await editJson(pack, 'standards.json', (blocks) => {
      const model = JSON.stringify(blocks.find((b: { sectionId: string }) => b.sectionId === 'RUL-6'));
      for (let number = 7; number <= 12; number++) blocks.push(JSON.parse(model.replaceAll('RUL-6', `RUL-${number}`)));
    });
    expect(await api.app.get(ContentImportService).importPack(pack)).toMatchObject({ status: 'imported', packVersion: '2027.4.0' });
    await api.app.get(RegistryService).refreshIfChanged();
    const run = (letters: string, count: number) => Array.from({ length: count }, (_, index) => `${letters}-${index + 1}`);
    const sections = [
      ...run('AGT', 2),
      ...run('DAT', 2),
      ...run('EQT', 2),
      ...run('FIN', 2),
      ...run('GOV', 3),
      ...run('PRJ', 5),
      ...run('RUL', 12),
      ...run('SEC', 3),
      ...run('SET', 5),
    ];
    for (const limit of [1, 5]) expect(await walk('standards', 'sectionId', limit, sections.length)).toEqual(sections);
    const { body: forged } = await request(api.server)
      .get(`/api/v2/standards?cursor=${Buffer.from(JSON.stringify(['standards', 'RUL'])).toString('base64url')}`)
      .expect(400);
    expect(forged.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });

  it('walks the terms across a new release, each term of both listed once in order; a search cursor of the old release is a 400', async () => {
    const page = async (query: string) => (await request(api.server).get(`/api/v2/terms?${query}`).expect(200)).body as TermPage;
    const termIds = async () => (await walk('terms', 'termId', 100, 1000)) as string[];
    const before = await termIds();
    const listed = await page('limit=10');
    const searched = await page('q=settlement&limit=2');
    expect(searched.nextCursor).not.toBeNull();

    const pack = await copyOfSamplePack('terms-moved');
    await editJson(pack, 'pack.json', (meta) => {
      meta.packVersion = '2027.5.0';
    });
    await editJson(pack, 'terms.json', (terms) => {
      const model = terms.find((term: { termId: string }) => term.termId === 'settlement-run');
      // A term before the cursor, one after it, and one that now ranks first for "settlement".
      for (const termId of ['aaa-settlement-basis', 'zzz-settlement-basis'])
        terms.push({ ...model, termId, term: { en: `Settlement ${termId}`, 'zh-Hans': `结算${termId}` }, related: [] });
      terms.find((term: { termId: string }) => term.termId === 'basis-point').designations.en.push('settlement settlement');
    });
    expect(await api.app.get(ContentImportService).importPack(pack)).toMatchObject({ status: 'imported', packVersion: '2027.5.0' });
    await api.app.get(RegistryService).refreshIfChanged();

    const walked = [...listed.items.map((term) => term.termId)];
    let cursor = listed.nextCursor;
    while (cursor) {
      const next = await page(`limit=10&cursor=${encodeURIComponent(cursor)}`);
      walked.push(...next.items.map((term) => term.termId));
      cursor = next.nextCursor;
    }
    const after = await termIds();
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(after.filter((termId) => termId !== 'aaa-settlement-basis'));
    expect(before.filter((termId) => !walked.includes(termId))).toEqual([]);

    const { body: refused } = await request(api.server)
      .get(`/api/v2/terms?q=settlement&limit=2&cursor=${encodeURIComponent(searched.nextCursor!)}`)
      .expect(400);
    expect(refused.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  });
});
