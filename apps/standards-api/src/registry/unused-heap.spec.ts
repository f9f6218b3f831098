import { getHeapSpaceStatistics } from 'node:v8';
import { giveBackUnusedHeap, heapGiveBackAfter, HeapGiveBackWhenIdle, withHeapGrowthHeld, type HeapGiveBackProbe } from './unused-heap';

const MB = 2 ** 20;

/** A heap and an event loop set by the test; a give-back brings the heap down to what is live. */
function process(heap: { total: number; live: number; busy: number }): HeapGiveBackProbe & { givenBack: () => number } {
  let givenBack = 0;
  return {
    heapTotal: () => heap.total,
    busyShareSinceLastCall: () => heap.busy,
    giveBack: () => {
      givenBack++;
      heap.total = heap.live;
    },
    givenBack: () => givenBack,
  };
}

describe('HeapGiveBackWhenIdle', () => {
  const thresholds = { grownBytes: 64 * MB, idleBusyShare: 0.05 };

  it('gives the heap back once it grew past the threshold and the event loop is idle, and only then', () => {
    const heap = { total: 160 * MB, live: 160 * MB, busy: 0.9 };
    const probe = process(heap);
    const giveBack = new HeapGiveBackWhenIdle(probe, thresholds);

    heap.total = 400 * MB;
    expect(giveBack.check()).toBeNull(); // grown, but serving a burst
    heap.busy = 0.01;
    expect(giveBack.check()).toMatchObject({ heapTotalBefore: 400 * MB, heapTotalAfter: 160 * MB });
    expect(probe.givenBack()).toBe(1);
    expect(giveBack.check()).toBeNull(); // nothing grown since
    expect(probe.givenBack()).toBe(1);
  });

  it('leaves a heap that grew less than the threshold, idle or not', () => {
    const heap = { total: 160 * MB, live: 150 * MB, busy: 0 };
    const probe = process(heap);
    const giveBack = new HeapGiveBackWhenIdle(probe, thresholds);
    heap.total = 160 * MB + 63 * MB;
    expect(giveBack.check()).toBeNull();
    expect(probe.givenBack()).toBe(0);
  });

  it('measures growth from what V8 shrank the heap to by itself, and from a reset', () => {
    const heap = { total: 300 * MB, live: 150 * MB, busy: 0 };
    const probe = process(heap);
    const giveBack = new HeapGiveBackWhenIdle(probe, thresholds);
    heap.total = 200 * MB; // V8's memory reducer ran
    expect(giveBack.check()).toBeNull();
    heap.total = 270 * MB; // 70 MB past what V8 left
    expect(giveBack.check()).not.toBeNull();

    heap.total = 400 * MB;
    giveBack.reset(); // a release load gave back its own heap and left this
    heap.total = 450 * MB;
    expect(giveBack.check()).toBeNull();
    expect(probe.givenBack()).toBe(1);
  });
});

describe('withHeapGrowthHeld', () => {
  const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;

  /** Allocates as a build does: batches that live a while, most of them garbage soon after. */
  async function allocateLikeABuild(): Promise<number> {
    let largest = youngGeneration();
    const living: unknown[][] = [];
    for (let batch = 0; batch < 300; batch++) {
      living.push(Array.from({ length: 2_000 }, (_, i) => ({ batch, i, text: `term ${batch} ${i}` })));
      if (living.length > 20) living.shift();
      largest = Math.max(largest, youngGeneration());
      if (batch % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return largest;
  }

  it('keeps the young generation near the size it had while a release is built, and lets it grow again after', async () => {
    giveBackUnusedHeap();
    const largestWhileHeld = await withHeapGrowthHeld(allocateLikeABuild);
    giveBackUnusedHeap();
    const largestLeftToV8 = await allocateLikeABuild();
    // Left to V8 it doubles to its 32 MB semi-spaces (64 MB); held, it stays a fraction of that: 16–25 MB seen on a
    // quiet machine, 35 MB once in CI at a load of 6 with the test run's other workers beside it.
    expect(largestWhileHeld).toBeLessThan(largestLeftToV8 * 0.75);
  });
});

describe('heapGiveBackAfter (HEAP_GIVE_BACK_AFTER_MB)', () => {
  it('gives back after the growth the operator set, and never for 0', () => {
    const heap = { total: 100 * MB, live: 100 * MB, busy: 0 };
    const probe = process(heap);
    expect(heapGiveBackAfter(0, probe)).toBeNull();
    const afterEight = heapGiveBackAfter(8, probe)!;
    const afterSixtyFour = heapGiveBackAfter(64, process(heap))!;
    heap.total = 110 * MB;
    expect(afterSixtyFour.check()).toBeNull();
    expect(afterEight.check()).toMatchObject({ heapTotalBefore: 110 * MB, heapTotalAfter: 100 * MB });
  });
});
