import { represent, RepresentationCache } from './representation';

const ofBytes = (bytes: number) => represent('x'.repeat(bytes - 2), null);

/** A build of a representation of some bytes that counts its calls. */
function counted(bytes: number): { build: () => ReturnType<typeof ofBytes>; calls: () => number } {
  let calls = 0;
  return { build: () => (calls++, ofBytes(bytes)), calls: () => calls };
}

describe('RepresentationCache', () => {
  it('builds a representation once and serves it again', () => {
    const cache = new RepresentationCache({ entries: 10, bytes: 1000 });
    const { build, calls } = counted(100);
    const first = cache.get('a', build);
    expect(cache.get('a', build)).toBe(first);
    expect(calls()).toBe(1);
  });

  it('keeps the bodies within the byte bound, dropping the least recently used first', () => {
    const cache = new RepresentationCache({ entries: 10, bytes: 1000 });
    cache.get('a', () => ofBytes(400));
    cache.get('b', () => ofBytes(400));
    cache.get('a', () => ofBytes(400));
    cache.get('c', () => ofBytes(400));
    expect(cache.size).toEqual({ entries: 2, bytes: 800 });
    const rebuilt = counted(400);
    cache.get('a', rebuilt.build);
    cache.get('c', rebuilt.build);
    expect(rebuilt.calls()).toBe(0);
    cache.get('b', rebuilt.build);
    expect(rebuilt.calls()).toBe(1);
  });

  it('keeps at most its number of entries', () => {
    const cache = new RepresentationCache({ entries: 3, bytes: 1_000_000 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) cache.get(key, () => ofBytes(10));
    expect(cache.size).toEqual({ entries: 3, bytes: 30 });
  });

  it('serves a representation larger than the whole bound without keeping it', () => {
    const cache = new RepresentationCache({ entries: 10, bytes: 1000 });
    cache.get('small', () => ofBytes(100));
    const large = cache.get('large', () => ofBytes(5000));
    expect(large.body.length).toBe(5000);
    expect(cache.size).toEqual({ entries: 1, bytes: 100 });
  });
});
