import type { SearchRequestDto } from '@stdreg/contracts';
import { RegistryCache } from './registry-cache';
import type { StandardsApiClient } from './standards-api.client';
import type { UpstreamResult } from './upstream-result';

/** standards-api's manifest only, its digest set by the test; `up: false` answers 503. */
function manifestOnly(): { api: StandardsApiClient; state: { digest: string; up: boolean } } {
  const state = { digest: 'sha256:one', up: true };
  const api = {
    get: (path: string): Promise<UpstreamResult<unknown>> =>
      Promise.resolve(
        !state.up
          ? { ok: false, status: 503, message: 'standards-api is unavailable' }
          : path === '/manifest'
            ? { ok: true, status: 200, body: { digest: state.digest } }
            : { ok: false, status: 404, message: 'not found' },
      ),
  } as unknown as StandardsApiClient;
  return { api, state };
}

/** A cache over `manifestOnly`, and a build that answers how many builds there have been. */
function countingBuilds() {
  const { api, state } = manifestOnly();
  let builds = 0;
  return {
    registry: new RegistryCache(api, 0),
    state,
    build: () => Promise.resolve({ ok: true as const, status: 200, body: ++builds }),
  };
}

describe('values built once per release', () => {
  it('builds once for every caller of the same release, concurrent or later', async () => {
    const { registry, build } = countingBuilds();
    const answers = await Promise.all([registry.perRelease('k', build), registry.perRelease('k', build), registry.perRelease('k', build)]);
    expect(answers.map((answer) => answer.ok && answer.body)).toEqual([1, 1, 1]);
    expect(await registry.perRelease('k', build)).toMatchObject({ ok: true, body: 1 });
    expect(await registry.perRelease('other', build)).toMatchObject({ ok: true, body: 2 });
  });

  it('builds again once the manifest names another release', async () => {
    const { registry, state, build } = countingBuilds();
    await registry.perRelease('k', build);
    state.digest = 'sha256:two';
    expect(await registry.perRelease('k', build)).toMatchObject({ ok: true, body: 2 });
    expect(await registry.perRelease('k', build)).toMatchObject({ ok: true, body: 2 });
  });

  it('keeps no failed build, and builds nothing while the manifest cannot be read', async () => {
    const { api, state } = manifestOnly();
    const registry = new RegistryCache(api, 0);
    let builds = 0;
    const failing = () => Promise.resolve({ ok: false as const, status: 503, message: `failure ${++builds}` });
    expect(await registry.perRelease('k', failing)).toMatchObject({ ok: false, message: 'failure 1' });
    expect(await registry.perRelease('k', failing)).toMatchObject({ ok: false, message: 'failure 2' });
    state.up = false;
    expect(await registry.perRelease('k', failing)).toMatchObject({ ok: false, status: 503, message: 'standards-api is unavailable' });
    expect(builds).toBe(2);
  });
});

/**
 * standards-api as reads and searches see it: every answer names the release (digest) it was given in and
 * counts as one question; `failNext` answers the next read 503 once.
 */
function releaseNaming() {
  const state = { digest: 'sha256:one', asked: 0, failNext: false };
  const api = {
    get: (path: string, query: Record<string, string | undefined> = {}): Promise<UpstreamResult<unknown>> => {
      if (path === '/manifest') return Promise.resolve({ ok: true, status: 200, body: { digest: state.digest } });
      state.asked++;
      if (state.failNext) {
        state.failNext = false;
        return Promise.resolve({ ok: false, status: 503, message: 'standards-api is unavailable' });
      }
      if (path === '/standards/GONE') return Promise.resolve({ ok: false, status: 404, message: 'not found' });
      return Promise.resolve({ ok: true, status: 200, body: { path, query, release: state.digest } });
    },
    search: (request: SearchRequestDto): Promise<UpstreamResult<unknown>> => {
      state.asked++;
      return Promise.resolve({ ok: true, status: 200, body: { request, release: state.digest } });
    },
  } as unknown as StandardsApiClient;
  return { registry: new RegistryCache(api, 0), state };
}

describe('reads and searches cached per release', () => {
  it('reads a document once per release and query, and again once the manifest names another release', async () => {
    const { registry, state } = releaseNaming();
    expect(await registry.read('/standards/RUL-1')).toMatchObject({ ok: true, body: { release: 'sha256:one' } });
    expect(await registry.read('/standards/RUL-1')).toMatchObject({ ok: true, body: { release: 'sha256:one' } });
    expect(await registry.read('/terms', { cursor: 'a' })).toMatchObject({ ok: true, body: { query: { cursor: 'a' } } });
    expect(await registry.read('/terms', { cursor: 'b' })).toMatchObject({ ok: true, body: { query: { cursor: 'b' } } });
    expect(state.asked).toBe(3);
    state.digest = 'sha256:two';
    expect(await registry.read('/standards/RUL-1')).toMatchObject({ ok: true, body: { release: 'sha256:two' } });
    expect(state.asked).toBe(4);
  });

  it('keeps an absent document for the release, but not a failure: the next read asks again', async () => {
    const { registry, state } = releaseNaming();
    expect(await registry.read('/standards/GONE')).toMatchObject({ ok: false, status: 404 });
    expect(await registry.read('/standards/GONE')).toMatchObject({ ok: false, status: 404 });
    expect(state.asked).toBe(1);
    state.failNext = true;
    expect(await registry.read('/standards/RUL-2')).toMatchObject({ ok: false, status: 503 });
    expect(await registry.read('/standards/RUL-2')).toMatchObject({ ok: true, body: { release: 'sha256:one' } });
    expect(state.asked).toBe(3);
  });

  it('answers a search from the list it searched, the limit and the text it was asked, and again in a new release', async () => {
    const { registry, state } = releaseNaming();
    const terms: SearchRequestDto = { q: 'cap', in: 'terms', limit: 5 };
    const standards: SearchRequestDto = { q: 'cap', in: 'standards', limit: 5 };
    expect(await registry.search(terms)).toMatchObject({ ok: true, body: { request: { in: 'terms' } } });
    expect(await registry.search(standards)).toMatchObject({ ok: true, body: { request: { in: 'standards' } } });
    expect(await registry.search({ ...terms, limit: 10 })).toMatchObject({ ok: true, body: { request: { limit: 10 } } });
    expect(await registry.search({ ...terms, q: 'cup' })).toMatchObject({ ok: true, body: { request: { q: 'cup' } } });
    expect(await registry.search(terms)).toMatchObject({ ok: true, body: { release: 'sha256:one' } });
    expect(state.asked).toBe(4);
    state.digest = 'sha256:two';
    expect(await registry.search(terms)).toMatchObject({ ok: true, body: { release: 'sha256:two' } });
    expect(state.asked).toBe(5);
  });
});

describe('every page of a list', () => {
  /** standards-api's /terms answering page after page, each naming the next by `pages` (a missing next: the last page). */
  function paging(pages: Record<string, string | null>) {
    let asked = 0;
    const api = {
      get: (_path: string, query: { cursor?: string }): Promise<UpstreamResult<unknown>> => {
        // A walk that never ends is stopped here, so the test fails instead of hanging.
        if (++asked > 100) return Promise.resolve({ ok: false, status: 599, message: 'asked too often' });
        const at = query.cursor ?? 'first';
        return Promise.resolve({ ok: true, status: 200, body: { items: [at], nextCursor: pages[at] ?? null } });
      },
    } as unknown as StandardsApiClient;
    return { registry: new RegistryCache(api, 0), asked: () => asked };
  }

  it('follows the cursors to the last page', async () => {
    const { registry } = paging({ first: 'b', b: 'c' });
    expect(await registry.walk('terms')).toEqual({ ok: true, status: 200, body: ['first', 'b', 'c'] });
  });

  it('refuses a list that pages back to a page it gave, instead of walking it for ever', async () => {
    const { registry, asked } = paging({ first: 'b', b: 'c', c: 'b' });
    expect(await registry.walk('terms')).toMatchObject({ ok: false, status: 502 });
    expect(asked()).toBe(3);
  });
});
