// After a release loads, V8 keeps the heap its build grew to (about twice what stays live) until its memory
// reducer runs, a minute or more later, when the process is idle; a replica that starts serving at once holds
// it meanwhile. V8's last-resort collection (the one a low-memory notification runs: full collections that
// compact the heap) gives the unused pages back at once. Node offers it only through the `gc` function of
// --expose-gc, which a context created after the flag is set has (docs/decisions.md, issue 30).
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * How much V8 lets the old generation grow past what the last full collection left live, in percent, while a
 * release is built beside the one serving: its own factor when it saves memory (1.3). Left to itself, V8 grows
 * it up to four times the live heap while the process allocates fast, and gives the pages back only once idle.
 * Not while serving: the limit counts the response buffers too, and full collections that often cost reads
 * with a body a third of their throughput (docs/decisions.md).
 */
const HEAP_GROWING_PERCENT_BESIDE = 30;

let collect: Collect | undefined;

/** Collects every unreachable object and returns the heap's empty pages to the system; blocks for the collection (seconds at full size). */
export function giveBackUnusedHeap(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Runs the build of a release beside the one serving with the old generation's growth held to
 * HEAP_GROWING_PERCENT_BESIDE and the young generation kept at the size it has (the give-back before the
 * build leaves it at its smallest): left to itself it doubles up to two 32 MB semi-spaces while the build
 * allocates, about 120 MB of the switch's peak; held, the build's survivors go to the old generation sooner and
 * the switch takes as long (docs/performance.md).
 */
export async function withHeapGrowthHeld<T>(build: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT_BESIDE}`);
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await build();
  } finally {
    // 0 and 2: V8's own factors again.
    setFlagsFromString('--heap-growing-percent=0');
    setFlagsFromString('--semi-space-growth-factor=2');
  }
}

/** What the give-back after a burst of reads looks at and does; the defaults are the process's own (tests pass others). */
export interface HeapGiveBackProbe {
  /** V8's heap as committed, young generation included (bytes). */
  heapTotal(): number;
  /** The share of the time since the last call the event loop was busy, 0 to 1. */
  busyShareSinceLastCall(): number;
  giveBack(): void;
}

export interface HeapGiveBackThresholds {
  /** How far the heap must have grown past what the last give-back (or a release load) left. */
  grownBytes: number;
  /** The event loop's busy share over the last check's interval below which the process counts as idle. */
  idleBusyShare: number;
}

export interface HeapGivenBack {
  milliseconds: number;
  heapTotalBefore: number;
  heapTotalAfter: number;
}

/** The event loop's busy share below which a replica counts as idle for a give-back. */
export const IDLE_BUSY_SHARE = 0.05;

const DEFAULT_THRESHOLDS: HeapGiveBackThresholds = { grownBytes: 64 * 2 ** 20, idleBusyShare: IDLE_BUSY_SHARE };

/**
 * After a burst of reads V8 keeps the heap they grew (a young generation grown to its maximum, about 120 MB at
 * full size, and an old generation grown to twice what is live) until its memory reducer finds the process
 * idle, 8 s or more later. Checked every second: once the heap has grown by `grownBytes` past what the last
 * give-back left and the event loop was idle over the last second, the unused heap is given back at once. It
 * blocks for the collection (about 1 s at full size, docs/performance.md); a replica never busier than
 * `idleBusyShare` meanwhile is one a request rarely meets then.
 */
export class HeapGiveBackWhenIdle {
  private leftAfterGiveBack: number;

  constructor(
    private readonly probe: HeapGiveBackProbe = processHeapProbe(),
    private readonly thresholds: HeapGiveBackThresholds = DEFAULT_THRESHOLDS,
  ) {
    this.leftAfterGiveBack = probe.heapTotal();
  }

  /** What the heap is now is what a give-back left (a release load gives back its own). */
  reset(): void {
    this.leftAfterGiveBack = this.probe.heapTotal();
    this.probe.busyShareSinceLastCall();
  }

  /** One check: gives the heap back when it grew and the process is idle; what it did, or null. */
  check(): HeapGivenBack | null {
    const busyShare = this.probe.busyShareSinceLastCall();
    const heapTotalBefore = this.probe.heapTotal();
    if (heapTotalBefore - this.leftAfterGiveBack < this.thresholds.grownBytes || busyShare >= this.thresholds.idleBusyShare) {
      // A heap V8 shrank by itself is the new mark to grow from.
      this.leftAfterGiveBack = Math.min(this.leftAfterGiveBack, heapTotalBefore);
      return null;
    }
    const started = performance.now();
    this.probe.giveBack();
    const milliseconds = performance.now() - started;
    this.leftAfterGiveBack = this.probe.heapTotal();
    this.probe.busyShareSinceLastCall();
    return { milliseconds, heapTotalBefore, heapTotalAfter: this.leftAfterGiveBack };
  }
}

function processHeapProbe(): HeapGiveBackProbe {
  let last = performance.eventLoopUtilization();
  return {
    heapTotal: () => process.memoryUsage().heapTotal,
    busyShareSinceLastCall: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return share;
    },
    giveBack: giveBackUnusedHeap,
  };
}

/** The give-back an operator asked for with HEAP_GIVE_BACK_AFTER_MB: none for 0. */
export function heapGiveBackAfter(grownMb: number, probe?: HeapGiveBackProbe): HeapGiveBackWhenIdle | null {
  if (grownMb === 0) return null;
  return new HeapGiveBackWhenIdle(probe, { grownBytes: grownMb * 2 ** 20, idleBusyShare: IDLE_BUSY_SHARE });
}
