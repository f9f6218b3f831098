import { grewBeyond, memoryGrowth } from '../src/memory-growth';

// Standards-api's RSS (MiB) in a 20-minute soak on PostgreSQL (session 55, docs/reliability.md): after 30 s of
// traffic, then at the end of each traffic period (read from a 5-second sampling of the same run). V8's young
// generation grew from 4 to 32 MB in the first minutes and RSS stayed about where it went, while the heap
// live after a collection stayed at 39-40 MB; the check before session 55 failed it at +10.1 %.
const flatHeap = [172.5, 165.6, 176.2, 183.9, 184.6, 184.8, 184.9, 185.0, 185.1, 185.1, 185.2, 185.2, 188.2, 190.0];

describe('memoryGrowth', () => {
  it('passes a process whose first sample came before V8 grew its young generation and which then stayed flat', () => {
    const growth = memoryGrowth(flatHeap);
    expect(growth).toEqual({ samples: 14, firstHalfPeak: 184.9, secondHalfPeak: 190, change: '2.8 %' });
    expect(grewBeyond(growth, 0.1)).toBe(false);
  });

  it('fails a process that keeps growing with the traffic it serves', () => {
    const growth = memoryGrowth(flatHeap.map((rss, period) => rss + period * 4));
    expect(growth.firstHalfPeak).toBeCloseTo(208.9);
    expect(growth.secondHalfPeak).toBeCloseTo(242);
    expect(grewBeyond(growth, 0.1)).toBe(true);
  });

  it('compares the two samples of a run that took only two', () => {
    expect(memoryGrowth([100, 111])).toEqual({ samples: 2, firstHalfPeak: 100, secondHalfPeak: 111, change: '11.0 %' });
  });

  it('refuses a single sample', () => {
    expect(() => memoryGrowth([100])).toThrow('at least two samples');
  });
});
