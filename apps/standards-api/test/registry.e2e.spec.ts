import request from 'supertest';
import { compareSectionIds, compareVersions } from '@stdreg/contracts';
import { loadPack, samplePackDirectory, type ContentPack } from '@stdreg/registry-content';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

let api: RunningStandardsApi;
let pack: ContentPack;
const get = (path: string) => request(api.server).get(`/api/v2${path}`);

beforeAll(async () => {
  api = await startStandardsApi();
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('sample pack invalid');
  pack = loaded.pack;
});
afterAll(() => api.close());

describe('manifest', () => {
  it('carries capabilities, locales, counts, provenance and the content digest', async () => {
    const { body, headers } = await get('/manifest').expect(200);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body).toMatchObject({
      apiVersion: '2.0.0',
      locales: ['en', 'zh-Hans'],
      counts: { standardVersions: pack.standards.length, terms: pack.terms.length, tasks: pack.tasks.length, roles: pack.roles.length },
      provenance: { packVersion: pack.pack.packVersion, formatVersion: 1 },
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(Date.parse(body.provenance.importedAt)).not.toBeNaN();
    expect(body.capabilities).toEqual(expect.arrayContaining(['standards', 'terms', 'etag', 'language-negotiation']));
  });
});

describe('standards', () => {
  it('reads the current version of a block with its canonical source', async () => {
    const twoVersions = pack.standards.find((b) => b.status === 'superseded')!.sectionId;
    const { body } = await get(`/standards/${twoVersions}`).expect(200);
    expect(body).toMatchObject({
      sectionId: twoVersions,
      status: 'current',
      supersededBy: null,
      citation: `${twoVersions}@${body.version}`,
    });
    expect(body.versions.length).toBeGreaterThanOrEqual(2);
    expect(body.source).toEqual({
      publisher: expect.any(String),
      edition: expect.any(String),
      uri: expect.stringMatching(/^https:\/\//),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.clauses[0]).toEqual({ clauseId: expect.any(String), text: { en: expect.any(String), 'zh-Hans': expect.any(String) } });
  });

  it('reads an older version with ?version=', async () => {
    const old = pack.standards.find((b) => b.status === 'superseded')!;
    const { body } = await get(`/standards/${old.sectionId}?version=${old.version}`).expect(200);
    expect(body).toMatchObject({ version: old.version, status: 'superseded', supersededBy: expect.any(String) });
    expect(body.clauses).toEqual(old.clauses);
  });

  it('answers unknown blocks and versions with 404 problem details, and a malformed version with 400', async () => {
    const sectionId = pack.standards[0]!.sectionId;
    const missing = await get('/standards/ZZZ-999').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({
      status: 404,
      code: 'not_found',
      type: expect.stringContaining('not_found'),
      requestId: expect.any(String),
    });
    await get(`/standards/${sectionId}?version=9.9`).expect(404);
    const malformed = await get(`/standards/${sectionId}?version=latest`).expect(400);
    expect(malformed.body.errors).toEqual([{ field: 'version', message: 'version must look like 1.0' }]);
  });
});

describe('lists and pagination', () => {
  const lists: [string, (p: ContentPack) => string[], string][] = [
    ['/standards', (p) => [...new Set(p.standards.map((b) => b.sectionId))], 'sectionId'],
    ['/terms', (p) => p.terms.map((t) => t.termId), 'termId'],
    ['/tasks', (p) => p.tasks.map((t) => t.taskCode), 'taskCode'],
    ['/roles', (p) => p.roles.map((r) => r.role), 'role'],
    ['/policies', (p) => p.policies.map((x) => x.policyId), 'policyId'],
    ['/split-templates', (p) => p.splitTemplates.map((t) => t.version), 'version'],
  ];

  it.each(lists)('%s walks every item exactly once, in a stable order', async (path, expectedKeys, keyField) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const { body } = await get(`${path}${query}`).expect(200);
      seen.push(...body.items.map((item: Record<string, string>) => item[keyField]));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 100);
    // Ids in code-unit order; section ids and split templates with their numbers as numbers (RUL-2 before RUL-10, 1.9 before 1.10).
    const order = { '/standards': compareSectionIds, '/split-templates': compareVersions }[path as string];
    expect(seen).toEqual([...expectedKeys(pack)].sort(order));
  });

  it.each(lists)('%s hands out no cursor with a page that ends exactly at the last item', async (path, expectedKeys) => {
    const count = new Set(expectedKeys(pack)).size;
    expect(count).toBeLessThanOrEqual(100);
    const { body } = await get(`${path}?limit=${count}`).expect(200);
    expect(body.items).toHaveLength(count);
    expect(body.nextCursor).toBeNull();
  });

  it('refuses malformed limits and cursors, naming the parameter', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten']) {
      const { body } = await get(`/terms?${query}`).expect(400);
      expect(body.errors[0].field).toBe('limit');
    }
    const badCursor = await get('/terms?cursor=not*a*cursor').expect(400);
    expect(badCursor.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    const { body: tasksPage } = await get('/tasks?limit=1').expect(200);
    const foreignCursor = await get(`/terms?cursor=${tasksPage.nextCursor}`).expect(400);
    expect(foreignCursor.body.errors[0].field).toBe('cursor');
    const unknownParameter = await get('/terms?colour=red').expect(400);
    expect(unknownParameter.body.errors[0].field).toBe('colour');
    for (const [query, field] of [
      [`q=${'q'.repeat(101)}`, 'q'],
      ['lang=fr', 'lang'],
    ] as const) {
      expect((await get(`/terms?${query}`).expect(400)).body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('judges the same query string by each list’s own parameters', async () => {
    await get('/terms?q=revenue').expect(200);
    expect((await get('/tasks?q=revenue').expect(400)).body.errors[0].field).toBe('q');
  });

  it('answers 20 items to a list asked without a limit', async () => {
    expect(pack.terms.length).toBeGreaterThan(20);
    const { body } = await get('/terms').expect(200);
    expect(body.items).toHaveLength(20);
  });
});

describe('terms search', () => {
  it('finds terms case- and diacritic-insensitively in both languages', async () => {
    const accented = pack.terms.find((t) => [...t.synonyms.en, t.term.en].some((s) => /[\u00C0-\u024F]/.test(s)))!;
    const accentedWord = [...accented.synonyms.en, accented.term.en].find((s) => /[\u00C0-\u024F]/.test(s))!;
    const plain = accentedWord.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
    const byPlain = await get(`/terms?q=${encodeURIComponent(plain)}&limit=100`).expect(200);
    expect(byPlain.body.items.map((t: { termId: string }) => t.termId)).toContain(accented.termId);

    const chinese = pack.terms[5]!;
    const byChinese = await get(`/terms?q=${encodeURIComponent(chinese.term['zh-Hans'])}&limit=100`).expect(200);
    expect(byChinese.body.items.map((t: { termId: string }) => t.termId)).toContain(chinese.termId);

    const none = await get('/terms?q=zzzzqqqq').expect(200);
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it('ranks by relevance, tolerates a misspelling, answers to designations and pages in rank order', async () => {
    const misspelt = await get(`/terms?q=${encodeURIComponent('disbursment')}`).expect(200);
    expect(misspelt.body.items[0].termId).toBe('payout');
    const everyday = await get(`/terms?q=${encodeURIComponent('four eyes')}`).expect(200);
    expect(everyday.body.items[0].termId).toBe('separation-of-duties');
    const chinese = await get(`/terms?q=${encodeURIComponent('受益人')}`).expect(200);
    expect(chinese.body.items[0].termId).toBe('participant');
    expect(chinese.body.items[0].designations['zh-Hans']).toContain('受益人');

    const all = await get('/terms?q=settlement&limit=100').expect(200);
    const first = await get('/terms?q=settlement&limit=2').expect(200);
    const second = await get(`/terms?q=settlement&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`).expect(200);
    const ids = (items: { termId: string }[]) => items.map((t) => t.termId);
    expect([...ids(first.body.items), ...ids(second.body.items)]).toEqual(ids(all.body.items).slice(0, 4));
    await get(`/terms?q=payout&cursor=${encodeURIComponent(first.body.nextCursor)}`).expect(400);
    // The cursor's list with a key that is no rank it hands out: a 400 naming `cursor`, not an empty page.
    const [list] = JSON.parse(Buffer.from(first.body.nextCursor, 'base64url').toString('utf8')) as [string, string];
    for (const key of ['abc', '1', '0000001x', '1000000000']) {
      const forged = Buffer.from(JSON.stringify([list, key])).toString('base64url');
      const refused = await get(`/terms?q=settlement&limit=2&cursor=${forged}`).expect(400);
      expect({ key, errors: refused.body.errors }).toEqual({ key, errors: [{ field: 'cursor', message: expect.any(String) }] });
    }
  });

  it('answers spellings that fold alike with the same page, ETag and cursors', async () => {
    const q = (text: string, extra = '') => get(`/terms?q=${encodeURIComponent(text)}&limit=2${extra}`).expect(200);
    for (const [written, spelling] of [
      ['settlement', 'ＳＥＴＴＬＥＭＥＮＴ'],
      ['settlement', 'settle\u00adment'],
      ['结算', '結算'],
      ['结算', '结\u200b算'],
    ] as const) {
      const [first, other] = [await q(written), await q(spelling)];
      expect(first.body.nextCursor).toEqual(expect.any(String));
      expect({ spelling, body: other.body, etag: other.headers['etag'] }).toEqual({
        spelling,
        body: first.body,
        etag: first.headers['etag'],
      });
      const next = await q(spelling, `&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(next.body).toEqual((await q(written, `&cursor=${encodeURIComponent(first.body.nextCursor)}`)).body);
    }
  });

  it('shows a term with its designations in both languages', async () => {
    const { body } = await get('/terms?q=basis%20point&limit=1').expect(200);
    const term = pack.terms.find((t) => t.termId === body.items[0].termId)!;
    expect(body.items[0].designations).toEqual(term.designations);
  });
});

describe('search', () => {
  const search = (body: unknown) =>
    request(api.server)
      .post('/api/v2/search')
      .send(body as object);

  it('answers one question with the best terms, roles or standards, each standard clause by clause with evidence', async () => {
    const terms = await search({ q: 'cap table', in: 'terms' }).expect(200);
    expect(terms.body).toMatchObject({ q: 'cap table', in: 'terms', digest: expect.stringMatching(/^sha256:/) });
    expect(terms.body.hits[0]).toMatchObject({ id: 'equity-ledger', match: 'synonym', term: { termId: 'equity-ledger' } });

    const roles = await search({ q: '审批每月结算批次的人', in: 'roles', limit: 3 }).expect(200);
    expect(roles.body.hits[0]).toMatchObject({ id: 'settlement-approver', role: { role: 'settlement-approver' } });
    expect(roles.body.hits.length).toBeLessThanOrEqual(3);

    const practice = 'Our AI agent releases payments automatically every Friday. Nobody signs off on the payment instructions.';
    const standards = await search({ q: practice, in: 'standards', limit: 3 }).expect(200);
    const fin2 = standards.body.hits.find((hit: { id: string }) => hit.id === 'FIN-2');
    expect(fin2.standard).toMatchObject({ sectionId: 'FIN-2', citation: expect.stringMatching(/^FIN-2@/) });
    const clause2 = fin2.standard.clauses.find((c: { clauseId: string }) => c.clauseId === '2');
    expect(clause2.contradicted.length).toBeGreaterThan(0);
    expect(clause2.evidence[0]).toEqual({ sentence: expect.any(String), words: expect.any(Array), terms: expect.any(Array) });
  });

  it('refuses a malformed question with a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ in: 'terms' }, 'q'],
      [{ q: '   ', in: 'terms' }, 'q'],
      [{ q: 'x'.repeat(4001), in: 'standards' }, 'q'],
      [{ q: 'cap', in: 'policies' }, 'in'],
      [{ q: 'cap', in: 'terms', limit: 0 }, 'limit'],
      [{ q: 'cap', in: 'terms', limit: 21 }, 'limit'],
      [{ q: 'cap', in: 'terms', colour: 'red' }, 'colour'],
    ] as const) {
      const { body: problem } = await search(body).expect(400);
      expect(JSON.stringify(problem)).toContain(field);
    }
  });
});

describe('tasks, roles, policies, brand and split templates', () => {
  it('reads one task record and answers 404 for an unknown one', async () => {
    const task = pack.tasks[3]!;
    const { body } = await get(`/tasks/${task.taskCode}`).expect(200);
    expect(body).toEqual(task);
    await get('/tasks/TSK-999').expect(404);
  });

  it('reads a role and answers 404 for an unknown one', async () => {
    const role = pack.roles[0]!;
    expect((await get(`/roles/${role.role}`).expect(200)).body).toEqual(role);
    await get('/roles/astronaut').expect(404);
  });

  it('reads a policy in force today, by version, and in force at a date', async () => {
    const policy = pack.policies[0]!;
    const [first, second] = policy.versions;
    const byVersion = await get(`/policies/${policy.policyId}?version=${first!.version}`).expect(200);
    expect(byVersion.body).toMatchObject({
      policyId: policy.policyId,
      version: first!.version,
      citation: `${policy.policyId}@${first!.version}`,
    });
    expect(byVersion.body.versions).toHaveLength(policy.versions.length);
    const atDate = await get(`/policies/${policy.policyId}?at=${second!.effectiveFrom}`).expect(200);
    expect(atDate.body.version).toBe(second!.version);
    const today = new Date().toISOString().slice(0, 10);
    const inForce = policy.versions.find((v) => v.effectiveFrom <= today && (!v.effectiveTo || today <= v.effectiveTo))!;
    expect((await get(`/policies/${policy.policyId}`).expect(200)).body.version).toBe(inForce.version);
  });

  it('refuses policy queries that cannot be answered', async () => {
    const policyId = pack.policies[0]!.policyId;
    await get('/policies/no-such-policy').expect(404);
    await get(`/policies/${policyId}?at=1900-01-01`).expect(404);
    expect((await get(`/policies/${policyId}?at=yesterday`).expect(400)).body.errors[0].field).toBe('at');
    expect((await get(`/policies/${policyId}?at=2026-02-30`).expect(400)).body.errors[0].field).toBe('at');
    // ISO 8601 forms other than a calendar day: a week or ordinal date, a month, a time with or without a zone.
    for (const at of ['2026-W09-1', '2026-060', '20260301', '2026-03', '2026-03-01T00:30:00+02:00', '2026-03-01T10:00']) {
      const refused = await get(`/policies/${policyId}?at=${encodeURIComponent(at)}`);
      expect({ at, status: refused.status, field: refused.body.errors?.[0]?.field }).toEqual({ at, status: 400, field: 'at' });
    }
    expect((await get(`/policies/${policyId}?version=1.0-draft`).expect(400)).body.errors[0].field).toBe('version');
    const both = await get(`/policies/${policyId}?at=2026-01-01&version=1.0`).expect(400);
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(['version', 'at']);
  });

  it('reads the pinned brand snapshot and each split template', async () => {
    expect((await get('/brand/current').expect(200)).body).toMatchObject({ snapshotId: pack.brand.snapshotId, name: pack.brand.name });
    for (const template of pack.splitTemplates) {
      const { body } = await get(`/split-templates/${template.version}`).expect(200);
      expect(body).toMatchObject({ version: template.version, status: template.status, participantRoles: template.participantRoles });
    }
    await get('/split-templates/9.9').expect(404);
  });
});

describe('languages', () => {
  it('returns both locales and no Content-Language when none is asked for', async () => {
    const response = await get('/roles/project-owner').expect(200);
    expect(response.headers['content-language']).toBeUndefined();
    expect(response.headers['vary']).toBe('Accept-Language');
    expect(response.body.text).toBeUndefined();
    expect(Object.keys(response.body.name)).toEqual(['en', 'zh-Hans']);
  });

  it('adds a flattened text view and Content-Language for ?lang=', async () => {
    const task = pack.tasks[0]!;
    const response = await get(`/tasks/${task.taskCode}?lang=zh-Hans`).expect(200);
    expect(response.headers['content-language']).toBe('zh-Hans');
    expect(response.body.title).toEqual(task.title);
    expect(response.body.text.title).toBe(task.title['zh-Hans']);
    expect(response.body.text.acceptanceCriteria).toEqual(task.acceptanceCriteria.map((c) => c['zh-Hans']));
    expect(response.body.text.inputs[0].description).toBe(task.inputs[0]!.description['zh-Hans']);
  });

  it('negotiates Accept-Language with q-values and regional tags; ?lang= wins', async () => {
    const zh = await get('/brand/current').set('Accept-Language', 'fr;q=1, zh-CN;q=0.8, en;q=0.5').expect(200);
    expect(zh.headers['content-language']).toBe('zh-Hans');
    expect(zh.body.text.name).toBe(pack.brand.name['zh-Hans']);
    const en = await get('/brand/current').set('Accept-Language', 'en-GB').expect(200);
    expect(en.headers['content-language']).toBe('en');
    const unsupported = await get('/brand/current').set('Accept-Language', 'de-DE, fr').expect(200);
    expect(unsupported.headers['content-language']).toBeUndefined();
    const explicit = await get('/brand/current?lang=en').set('Accept-Language', 'zh-Hans').expect(200);
    expect(explicit.headers['content-language']).toBe('en');
    expect((await get('/brand/current?lang=fr').expect(400)).body.errors[0].field).toBe('lang');
  });

  it('reads Accept-Language by RFC 9110 and BCP 47: Q=0 refuses, * stands for the other locale, extlang and likely-script tags', async () => {
    const cases: [string, string | undefined][] = [
      ['zh;Q=0, en;q=0.5', 'en'],
      ['en;q=0, *', 'zh-Hans'],
      ['en;q=0.5, *;q=0.8', 'zh-Hans'],
      ['zh-cmn-Hans-CN', 'zh-Hans'],
      ['zh-MY', 'zh-Hans'],
      ['zh-HK, en;q=0.1', 'en'],
      ['en;q=abc, zh;q=0.1', 'zh-Hans'],
      ['*', undefined],
    ];
    for (const [header, locale] of cases) {
      const response = await get('/brand/current').set('Accept-Language', header).expect(200);
      expect({ header, language: response.headers['content-language'] }).toEqual({ header, language: locale });
    }
  });
});

describe('caching', () => {
  it('answers If-None-Match with the current ETag by 304 and a changed one by 200', async () => {
    const first = await get('/standards').expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const notModified = await get('/standards').set('If-None-Match', etag).expect(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['etag']).toBe(etag);
    await get('/standards').set('If-None-Match', `W/${etag}, "other"`).expect(304);
    await get('/standards').set('If-None-Match', '"something-else"').expect(200);
  });

  it('gives each language variant its own ETag', async () => {
    const both = await get('/manifest').expect(200);
    const zh = await get('/manifest?lang=zh-Hans').expect(200);
    expect(zh.headers['etag']).not.toBe(both.headers['etag']);
    await get('/manifest?lang=zh-Hans')
      .set('If-None-Match', both.headers['etag'] as string)
      .expect(200);
  });

  it('keeps each language variant of every single-record read apart, each with its own ETag and Content-Language', async () => {
    const paths = [
      `/standards/${pack.standards[0]!.sectionId}`,
      `/tasks/${pack.tasks[0]!.taskCode}`,
      '/roles/project-owner',
      `/policies/${pack.policies[0]!.policyId}`,
      '/brand/current',
      `/split-templates/${pack.splitTemplates[0]!.version}`,
    ];
    for (const path of paths) {
      const zh = await get(`${path}?lang=zh-Hans`).expect(200);
      const en = await get(`${path}?lang=en`).expect(200);
      const both = await get(path).expect(200);
      expect([zh.headers['content-language'], en.headers['content-language'], both.headers['content-language']]).toEqual([
        'zh-Hans',
        'en',
        undefined,
      ]);
      expect(new Set([zh.headers['etag'], en.headers['etag'], both.headers['etag']]).size).toBe(3);
    }
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document, version 2.0.0, describing every registry read', async () => {
    const { body } = await request(api.server).get('/api/v2/openapi.json').expect(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toBe('2.0.0');
    for (const path of [
      '/manifest',
      '/standards',
      '/standards/{sectionId}',
      '/terms',
      '/tasks',
      '/tasks/{taskCode}',
      '/roles',
      '/policies/{policyId}',
      '/brand/current',
      '/split-templates/{version}',
    ]) {
      expect(body.paths[`/api/v2${path}`]?.get).toBeDefined();
    }
    expect(body.paths['/api/v2/search']?.post?.requestBody).toBeDefined();
    expect(body.components.schemas.SearchResultDto.properties.hits).toBeDefined();
    expect(body.components.schemas.TermDto.properties.designations).toBeDefined();
    expect(JSON.stringify(body)).not.toContain('"nullable"');
    expect(body.components.schemas.StandardBlockDto.properties.source).toBeDefined();
  });

  it('serves an interactive reference page', async () => {
    const { text } = await request(api.server).get('/api/v2/docs').expect(200);
    expect(text).toContain('swagger');
  });
});
