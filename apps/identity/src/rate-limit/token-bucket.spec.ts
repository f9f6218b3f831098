import { MemoryRateLimitStore, perMinute, retryAfterSeconds, bindingBucket, type BucketSpec } from './token-bucket';

describe('the token bucket (in process)', () => {
  const general: BucketSpec = { key: 'k', capacity: 120, perMillisecond: perMinute(60) };
  const writes: BucketSpec = { key: 'k:w', capacity: 20, perMillisecond: perMinute(20) };

  it('allows the burst, then one request per refill interval (sustained rate)', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
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
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 20; i++) expect((await store.take([general, writes])).allowed).toBe(true);
    const refused = await store.take([general, writes]);
    expect(refused.allowed).toBe(false);
    expect(bindingBucket(refused).spec.key).toBe('k:w');
    expect(retryAfterSeconds(refused)).toBe(3);
    const reads = await store.take([general]);
    expect(reads.allowed).toBe(true);
    expect(Math.floor(reads.buckets[0]!.tokens)).toBe(99);
  });

  it('never answers Retry-After 0', () => {
    expect(retryAfterSeconds({ allowed: false, buckets: [{ spec: general, tokens: 0.9999999 }] })).toBe(1);
  });
});
