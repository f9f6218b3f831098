import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import type { JsonLogger } from '@stdreg/server-kit';
import type { GatewayAuthorization } from '../callers/gateway-authorization';
import type { IdentityClient } from '../upstream/identity.client';
import { RegistryCache } from '../upstream/registry-cache';
import type { StandardsApiClient } from '../upstream/standards-api.client';
import type { UpstreamResult } from '../upstream/upstream-result';
import { parseResourceUri } from './resource-catalogue';
import { RESOURCE_PAGE_SIZE, ResourceDirectory } from './resource-directory';
import { ResourceReader } from './resource-reader';

const localized = (text: string) => ({ en: text, 'zh-Hans': text });

/** One release of a registry: its digest and the ids of each list. */
interface Release {
  digest: string;
  sectionIds: string[];
  taskCodes: string[];
  roles: string[];
  policyIds: string[];
  versions: string[];
  termIds: string[];
}

/**
 * standards-api as the gateway sees it: the manifest and every list in pages of at most `limit`, the
 * cursor the last key of the page before; counts the list pages asked. `available: false` answers 503.
 */
class FakeRegistry {
  listPages = 0;
  available = true;

  constructor(public release: Release) {}

  get<T>(path: string, query: Record<string, string | undefined> = {}): Promise<UpstreamResult<T>> {
    if (!this.available) return Promise.resolve({ ok: false, status: 503, message: 'standards-api is unavailable' });
    if (path === '/manifest') return Promise.resolve({ ok: true, status: 200, body: { digest: this.release.digest } as T });
    const lists: Record<string, Array<{ key: string; item: unknown }>> = {
      '/standards': this.release.sectionIds.map((id) => ({ key: id, item: { sectionId: id, title: localized(`Block ${id}`) } })),
      '/tasks': this.release.taskCodes.map((code) => ({ key: code, item: { taskCode: code, title: localized(`Task ${code}`) } })),
      '/roles': this.release.roles.map((role) => ({ key: role, item: { role, name: localized(role) } })),
      '/policies': this.release.policyIds.map((id) => ({ key: id, item: { policyId: id, citation: `${id}@1.0`, title: localized(id) } })),
      '/split-templates': this.release.versions.map((version) => ({ key: version, item: { version, name: localized('Template') } })),
      '/terms': this.release.termIds.map((id) => ({ key: id, item: { termId: id, term: localized(id) } })),
    };
    const list = lists[path];
    if (!list) return Promise.resolve({ ok: false, status: 404, message: 'not found' });
    this.listPages++;
    const limit = Number(query['limit']);
    const from = query['cursor'] === undefined ? 0 : list.findIndex((entry) => entry.key === query['cursor']) + 1;
    const page = list.slice(from, from + limit);
    const nextCursor = from + limit < list.length ? page.at(-1)!.key : null;
    return Promise.resolve({ ok: true, status: 200, body: { items: page.map((entry) => entry.item), nextCursor } as T });
  }
}

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);

const RELEASE: Release = {
  digest: 'sha256:one',
  // 230 blocks: three pages of standards-api's list, five of the gateway's.
  sectionIds: ids('RUL', 230),
  taskCodes: ids('TSK', 7),
  roles: ['investor', 'settlement-approver'],
  policyIds: ['acceptable-use', 'agent-use', 'privacy'],
  versions: ['1.0', '2.0'],
  termIds: ids('TERM', 250),
};

function directoryOf(fake: FakeRegistry, refreshMs = 60_000): { directory: ResourceDirectory; registry: RegistryCache } {
  const registry = new RegistryCache(fake as unknown as StandardsApiClient, refreshMs);
  return { directory: new ResourceDirectory(registry), registry };
}

async function listAll(directory: ResourceDirectory): Promise<{ uris: string[]; pageSizes: number[] }> {
  const uris: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await directory.list(cursor);
    if (!page.ok) throw new Error(page.message);
    uris.push(...page.resources.map((resource: Resource) => resource.uri));
    pageSizes.push(page.resources.length);
    cursor = page.nextCursor;
  } while (cursor);
  return { uris, pageSizes };
}

const expectedUris = (release: Release) => [
  'stdreg://manifest/current',
  'stdreg://glossary/current',
  'stdreg://brand/current',
  'stdreg://glossary-page/first',
  ...release.sectionIds.map((id) => `stdreg://standards/${id}`),
  ...release.taskCodes.map((code) => `stdreg://taskspec/${code}`),
  ...release.roles.map((role) => `stdreg://roles/${role}`),
  ...release.policyIds.map((id) => `stdreg://policy/${id}`),
  ...release.versions.map((version) => `stdreg://split-templates/${version}`),
];

describe('resources/list', () => {
  it('pages through every registry resource once: the singletons, then each template in the registry list order', async () => {
    const { directory } = directoryOf(new FakeRegistry(RELEASE));
    const { uris, pageSizes } = await listAll(directory);
    expect(uris).toEqual(expectedUris(RELEASE));
    const total = expectedUris(RELEASE).length;
    expect(pageSizes).toEqual([
      ...Array.from({ length: Math.floor(total / RESOURCE_PAGE_SIZE) }, () => RESOURCE_PAGE_SIZE),
      total % RESOURCE_PAGE_SIZE,
    ]);
  });

  it('hands out no cursor after a last page that is full', async () => {
    // 18 resources besides the blocks: with 82 blocks, exactly two full pages.
    const release = { ...RELEASE, sectionIds: ids('RUL', 82) };
    const { directory } = directoryOf(new FakeRegistry(release));
    expect(expectedUris(release)).toHaveLength(2 * RESOURCE_PAGE_SIZE);
    const { uris, pageSizes } = await listAll(directory);
    expect(pageSizes).toEqual([RESOURCE_PAGE_SIZE, RESOURCE_PAGE_SIZE]);
    expect(uris).toEqual(expectedUris(release));
  });

  it('reads the registry lists once per release, not on every page', async () => {
    const fake = new FakeRegistry(RELEASE);
    const { directory } = directoryOf(fake);
    await listAll(directory);
    const pagesAfterOneWalk = fake.listPages;
    // standards 3 pages, the other four lists one each (the glossary pages' first page is listed without a read).
    expect(pagesAfterOneWalk).toBe(7);
    await listAll(directory);
    await directory.complete('stdreg://standards/{sectionId}', 'sectionId', 'rul-01');
    expect(fake.listPages).toBe(pagesAfterOneWalk);
  });

  it('answers the new release once its digest changes, and the cached one until then', async () => {
    const fake = new FakeRegistry(RELEASE);
    const { directory } = directoryOf(fake, 0);
    await listAll(directory);
    const grown = { ...RELEASE, sectionIds: [...RELEASE.sectionIds, 'RUL-9999'] };
    fake.release = grown;
    expect((await listAll(directory)).uris).toEqual(expectedUris(RELEASE));
    fake.release = { ...grown, digest: 'sha256:two' };
    expect((await listAll(directory)).uris).toEqual(expectedUris(grown));
    expect(await directory.complete('stdreg://standards/{sectionId}', 'sectionId', 'RUL-99')).toEqual({
      values: ['RUL-9999'],
      total: 1,
      hasMore: false,
    });
  });

  it('refuses a cursor it did not give', async () => {
    const { directory } = directoryOf(new FakeRegistry(RELEASE));
    expect(await directory.list(Buffer.from('not a number').toString('base64url'))).toEqual({
      ok: false,
      reason: 'invalid_cursor',
      message: expect.stringContaining('Invalid cursor'),
    });
  });

  it('refuses an offset, a truncated cursor, and one naming no listed resource', async () => {
    const { directory } = directoryOf(new FakeRegistry(RELEASE));
    const first = await directory.list(undefined);
    const cursor = first.ok ? first.nextCursor! : '';
    const named = (uri: string) => Buffer.from(JSON.stringify(['resources', uri])).toString('base64url');
    for (const forged of [
      Buffer.from(String(RESOURCE_PAGE_SIZE)).toString('base64url'),
      cursor.slice(0, -3),
      `${cursor}!`,
      named('stdreg://split-projects/0190e0c4-2b1c-7cde-8f00-000000000001'),
      named('stdreg://split-templates/one'),
      named('https://example.com/standards/RUL-1'),
      Buffer.from(JSON.stringify(['terms', 'stdreg://standards/RUL-0001'])).toString('base64url'),
    ]) {
      expect({ forged, page: await directory.list(forged) }).toEqual({
        forged,
        page: { ok: false, reason: 'invalid_cursor', message: expect.stringContaining('Invalid cursor') },
      });
    }
  });

  it('walks across release changes: each resource listed in every release seen is listed once, in list order', async () => {
    // Section ids of one to three digits (RUL-9 before RUL-10), versions with a two-digit minor (1.9 before 1.10).
    const sectionPool = Array.from({ length: 160 }, (_, i) => `RUL-${i * 3 + 1}`);
    const versionPool = Array.from({ length: 12 }, (_, i) => `1.${i}`);
    const order = (uri: string) => expectedUris({ ...RELEASE, sectionIds: sectionPool, versions: versionPool }).indexOf(uri);
    const subset = (pool: string[]) => fc.subarray(pool, { minLength: 0 }).map((picked) => pool.filter((id) => picked.includes(id)));
    const release = fc.record({ sectionIds: subset(sectionPool), versions: subset(versionPool) });
    await fc.assert(
      fc.asyncProperty(release, fc.array(fc.option(release, { nil: undefined, freq: 2 }), { maxLength: 8 }), async (start, changes) => {
        const fake = new FakeRegistry({ ...RELEASE, ...start, digest: 'sha256:0' });
        const { directory } = directoryOf(fake, 0);
        const seen: Release[] = [fake.release];
        const uris: string[] = [];
        let cursor: string | undefined;
        let step = 0;
        do {
          const page = await directory.list(cursor);
          if (!page.ok) throw new Error(page.message);
          uris.push(...page.resources.map((resource) => resource.uri));
          cursor = page.nextCursor;
          const change = changes[step++];
          if (change) {
            fake.release = { ...RELEASE, ...change, digest: `sha256:${step}` };
            seen.push(fake.release);
          }
        } while (cursor);
        const throughout = seen.map((one) => new Set(expectedUris(one))).reduce((a, b) => new Set([...a].filter((uri) => b.has(uri))));
        expect(new Set(uris).size).toBe(uris.length);
        expect(uris.map(order)).toEqual(uris.map(order).sort((a, b) => a - b));
        expect([...throughout].filter((uri) => !uris.includes(uri))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('answers unavailable while standards-api is away, and keeps no failure: the next list reads again', async () => {
    const fake = new FakeRegistry(RELEASE);
    const { directory } = directoryOf(fake, 0);
    fake.available = false;
    expect(await directory.list(undefined)).toEqual({ ok: false, reason: 'unavailable', message: expect.stringContaining('unavailable') });
    expect(await directory.complete('stdreg://standards/{sectionId}', 'sectionId', '')).toEqual({ values: [], total: 0, hasMore: false });
    fake.available = true;
    expect((await listAll(directory)).uris).toEqual(expectedUris(RELEASE));
  });
});

describe('completion of a template variable', () => {
  // Mixed case and ids that are prefixes of others, in the registry's order (numbers as numbers).
  const sectionIds = [...ids('ABC', 150), 'Abd-1', 'XY-1', 'XY-9', 'XY-10', 'XY-100', 'ZED', 'xy-2'];
  const complete = async (prefix: string) =>
    (
      await directoryOf(new FakeRegistry({ ...RELEASE, sectionIds })).directory.complete(
        'stdreg://standards/{sectionId}',
        'sectionId',
        prefix,
      )
    ).values;

  it("answers every value starting with the prefix, whatever its case, in the registry's order", async () => {
    expect(await complete('xy-1')).toEqual(['XY-1', 'XY-10', 'XY-100']);
    expect(await complete('XY')).toEqual(['XY-1', 'XY-9', 'XY-10', 'XY-100', 'xy-2']);
    expect(await complete('abd')).toEqual(['Abd-1']);
    expect(await complete('zed')).toEqual(['ZED']);
    expect(await complete('zeds')).toEqual([]);
    expect(await complete('0')).toEqual([]);
  });

  it('answers at most 100 values, the first in order, with the count of all', async () => {
    const { directory } = directoryOf(new FakeRegistry({ ...RELEASE, sectionIds }));
    const completion = await directory.complete('stdreg://standards/{sectionId}', 'sectionId', 'ab');
    expect(completion).toEqual({ values: [...ids('ABC', 100)], total: 151, hasMore: true });
    expect(await directory.complete('stdreg://standards/{sectionId}', 'sectionId', '')).toMatchObject({
      total: sectionIds.length,
      hasMore: true,
    });
  });

  it('offers versions in version order: 1.9 before 1.10', async () => {
    const { directory } = directoryOf(new FakeRegistry({ ...RELEASE, versions: ['1.0', '1.9', '1.10', '2.0'] }));
    expect(await directory.complete('stdreg://split-templates/{version}', 'version', '1.')).toEqual({
      values: ['1.0', '1.9', '1.10'],
      total: 3,
      hasMore: false,
    });
  });

  it('says there are no more when exactly 100 values start with the prefix', async () => {
    const { directory } = directoryOf(new FakeRegistry({ ...RELEASE, sectionIds: [...ids('PQR', 100), 'PQS-1'] }));
    expect(await directory.complete('stdreg://standards/{sectionId}', 'sectionId', 'pqr')).toEqual({
      values: ids('PQR', 100),
      total: 100,
      hasMore: false,
    });
  });

  it('agrees with a filter of every value for each prefix of each value', async () => {
    const { directory } = directoryOf(new FakeRegistry({ ...RELEASE, sectionIds }));
    for (const prefix of new Set(sectionIds.flatMap((id) => [...id].map((_, end) => id.slice(0, end + 1).toLowerCase())))) {
      const matching = sectionIds.filter((id) => id.toLowerCase().startsWith(prefix));
      expect({ prefix, completion: await directory.complete('stdreg://standards/{sectionId}', 'sectionId', prefix) }).toEqual({
        prefix,
        completion: { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 },
      });
    }
  });
});

describe('the glossary resource', () => {
  const readerOf = (registry: RegistryCache) =>
    new ResourceReader(
      registry,
      null as unknown as StandardsApiClient,
      null as unknown as IdentityClient,
      null as unknown as GatewayAuthorization,
      null as unknown as JsonLogger,
    );
  const glossary = parseResourceUri('stdreg://glossary/current')!;
  const termIdsOf = (read: Awaited<ReturnType<ResourceReader['read']>>) =>
    read.ok ? (JSON.parse(read.json) as { terms: Array<{ termId: string }> }).terms.map((term) => term.termId) : read;

  it('holds every term in list order, read from standards-api once per release', async () => {
    const fake = new FakeRegistry(RELEASE);
    const reader = readerOf(new RegistryCache(fake as unknown as StandardsApiClient, 0));
    expect(termIdsOf(await reader.read(glossary, { credential: null } as never))).toEqual(RELEASE.termIds);
    const pages = fake.listPages;
    expect(pages).toBe(3);
    await reader.read(glossary, { credential: null } as never);
    expect(fake.listPages).toBe(pages);
    fake.release = { ...RELEASE, digest: 'sha256:two', termIds: ids('TERM', 3) };
    expect(termIdsOf(await reader.read(glossary, { credential: null } as never))).toEqual(ids('TERM', 3));
  });

  it('is also served in pages of 100 terms, each page one read of standards-api, together every term in list order', async () => {
    const fake = new FakeRegistry(RELEASE);
    const reader = readerOf(new RegistryCache(fake as unknown as StandardsApiClient, 60_000));
    const read = async (uri: string) => {
      const answer = await reader.read(parseResourceUri(uri)!, { credential: null } as never);
      if (!answer.ok) throw new Error(answer.message);
      return JSON.parse(answer.json) as { terms: Array<{ termId: string }>; nextPage: string | null };
    };
    const termIds: string[] = [];
    const sizes: number[] = [];
    let uri: string | null = 'stdreg://glossary-page/first';
    while (uri !== null) {
      const before = fake.listPages;
      const page = await read(uri);
      expect(fake.listPages).toBe(before + 1);
      termIds.push(...page.terms.map((term) => term.termId));
      sizes.push(page.terms.length);
      uri = page.nextPage;
    }
    expect(termIds).toEqual(RELEASE.termIds);
    expect(sizes).toEqual([100, 100, 50]);
    // A page read again is the release's cached answer.
    await read('stdreg://glossary-page/first');
    expect(fake.listPages).toBe(3);
  });

  it('answers a page cursor standards-api does not know as a missing resource', async () => {
    const fake = new FakeRegistry(RELEASE);
    const reader = readerOf(new RegistryCache(fake as unknown as StandardsApiClient, 60_000));
    // standards-api refuses a cursor it did not give with 400: the page is as absent as an unknown id.
    fake.get = ((path: string) =>
      path === '/manifest'
        ? Promise.resolve({ ok: true, status: 200, body: { digest: RELEASE.digest } })
        : Promise.resolve({ ok: false, status: 400, message: 'Invalid cursor' })) as FakeRegistry['get'];
    expect(await reader.read(parseResourceUri('stdreg://glossary-page/bm90LWEtY3Vyc29y')!, { credential: null } as never)).toEqual({
      ok: false,
      reason: 'not_found',
      code: 'resource_not_found',
      message: 'Resource not found',
    });
  });
});

describe('the glossary pages template', () => {
  it('is listed among the templates and completes its first page', async () => {
    const { directory } = directoryOf(new FakeRegistry(RELEASE));
    expect(directory.templates().map((template) => template.uriTemplate)).toContain('stdreg://glossary-page/{cursor}');
    expect(await directory.complete('stdreg://glossary-page/{cursor}', 'cursor', 'f')).toEqual({
      values: ['first'],
      total: 1,
      hasMore: false,
    });
    expect(await directory.complete('stdreg://glossary-page/{cursor}', 'cursor', 'x')).toEqual({ values: [], total: 0, hasMore: false });
  });
});
