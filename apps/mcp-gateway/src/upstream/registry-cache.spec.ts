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
