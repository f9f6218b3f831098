// How a soak judges a service's memory (docs/reliability.md, "What the memory check measures"). A process's
// RSS is a high-water mark: it follows V8's heap up as its young generation grows to its working size (from
// 1 to 32 MB of semi-spaces under the soak's traffic, minutes in) and does not come down when V8 shrinks it
// again. One sample after a short warm-up against one at the end compares a process still growing into its
// sizes with one that has reached them. A leak grows with the traffic served: the peak over the second half
// of the samples (taken at the same point of each traffic period) rises past the peak over the first half.

/** A figure sampled from a service's warm-up on, at the end of each traffic period: its peak in each half. */
export interface MemoryGrowth {
  samples: number;
  firstHalfPeak: number;
  secondHalfPeak: number;
  change: string;
}

/** The peaks of the first and second half of `samples` (oldest first; at least two). */
export function memoryGrowth(samples: readonly number[]): MemoryGrowth {
  if (samples.length < 2) throw new Error(`memory growth needs at least two samples, got ${samples.length}`);
  const half = Math.ceil(samples.length / 2);
  const firstHalfPeak = Math.max(...samples.slice(0, half));
  const secondHalfPeak = Math.max(...samples.slice(half));
  return {
    samples: samples.length,
    firstHalfPeak,
    secondHalfPeak,
    change: `${(((secondHalfPeak - firstHalfPeak) / firstHalfPeak) * 100).toFixed(1)} %`,
  };
}

/** Whether the second half's peak is more than `share` (0.1: 10 %) above the first half's. */
export function grewBeyond(growth: MemoryGrowth, share: number): boolean {
  return growth.secondHalfPeak > growth.firstHalfPeak * (1 + share);
}
