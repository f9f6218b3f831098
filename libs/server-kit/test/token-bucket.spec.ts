import { MemoryRateLimitStore, perMinute, retryAfterSeconds, bindingBucket, type BucketSpec } from '../src/rate-limit/token-bucket';

describe('the token bucket (in process)', () => {
  const general: BucketSpec = { key: 'k', capacity: 120, perMillisecond: perMinute(60) };
  const writes: BucketSpec = { key: 'k:w', capacity: 20, perMillisecond: perMinute(20) };

  it('allows the burst, then one request per refill interval (sustained rate)', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    for (let i = 0; i < 120; i++) expect((await store.take([general])).allowed).toBe(true);
    const refused = await store.take([general]);
    expect(refused.allowed).toBe(false);
    expect(retryAfterSeconds(refused)).toBe(1);
    now += 1000;
    expect((await store.take([general])).allowed).toBe(true);
    expect((await store.take([general])).allowed).toBe(false);
    now += 60_000;
    let allowed = 0;
    while ((await store.take([general])).allowed) allowed++;
    expect(allowed).toBe(60);
  });

  it('takes from every bucket or from none', async () => {
    const now = 5_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    for (let i = 0; i < 20; i++) expect((await store.take([general, writes])).allowed).toBe(true);
    const refused = await store.take([general, writes]);
    expect(refused.allowed).toBe(false);
    expect(bindingBucket(refused).spec.key).toBe('k:w');
    expect(retryAfterSeconds(refused)).toBe(3);
    const reads = await store.take([general]);
    expect(reads.allowed).toBe(true);
    expect(Math.floor(reads.buckets[0]!.tokens)).toBe(99);
  });

  it('takes several tokens from every bucket at once, or none, and tells the wait until that many are back', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now });
    const perSecond: BucketSpec = { key: 'batch', capacity: 5, perMillisecond: 1 / 1000 };
    expect((await store.take([perSecond, general], 3)).allowed).toBe(true);
    const refused = await store.take([perSecond, general], 3);
    expect(refused.allowed).toBe(false);
    expect(refused.buckets.map((b) => b.tokens)).toEqual([2, 117]);
    expect(retryAfterSeconds(refused, 3)).toBe(1);
    expect((await store.take([perSecond], 2)).allowed).toBe(true);
    now += 2500;
    const later = await store.take([perSecond], 3);
    expect(later.allowed).toBe(false);
    expect(retryAfterSeconds(later, 3)).toBe(1);
    now += 500;
    expect((await store.take([perSecond], 3)).allowed).toBe(true);
  });

  it('forgets buckets that have filled up again, and never one still being refilled', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now, sweepFrom: 10 });
    const small = (key: string): BucketSpec => ({ key, capacity: 2, perMillisecond: perMinute(2) });
    expect((await store.take([small('drained')])).allowed).toBe(true);
    expect((await store.take([small('drained')])).allowed).toBe(true);
    now += 10_000;
    for (let i = 0; i < 9; i++) await store.take([small(`passer-by-${i}`)]);
    // Ten buckets: a sweep, in which nothing is full yet.
    expect(store.size).toBe(10);
    now += 30_000;
    // The passers-by are full again after 30 s; the drained bucket, 40 s after its last take, holds 1.33 tokens.
    for (let i = 0; i < 11; i++) await store.take([small(`later-${i}`)]);
    expect(store.size).toBe(12);
    const drained = await store.take([small('drained')]);
    expect(drained.allowed).toBe(true);
    expect(drained.buckets[0]!.tokens).toBeCloseTo(1 / 3, 6);
    expect((await store.take([small('drained')])).allowed).toBe(false);
  });

  it('keeps memory near the number of buckets in use when callers keep changing', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now, sweepFrom: 100 });
    const spec = (key: string): BucketSpec => ({ key, capacity: 5, perMillisecond: perMinute(60) });
    for (let i = 0; i < 10_000; i++) {
      now += 100;
      await store.take([spec(`caller-${i}`)]);
    }
    // A bucket that lost one token is full 1 s later: about ten callers are "in use" at any time.
    expect(store.size).toBeLessThanOrEqual(100);
  });

  it('never answers Retry-After 0', () => {
    expect(retryAfterSeconds({ allowed: false, buckets: [{ spec: general, tokens: 0.9999999 }] })).toBe(1);
  });
});
