// After a release loads, V8 keeps the heap its build grew to (about twice what stays live) until its memory
// reducer runs, a minute or more later, when the process is idle; a replica that starts serving at once holds
// it meanwhile. V8's last-resort collection (the one a low-memory notification runs: full collections that
// compact the heap) gives the unused pages back at once. Node offers it only through the `gc` function of
// --expose-gc, which a context created after the flag is set has (docs/decisions.md, issue 30).
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

/** Runs the build of a release beside the one serving with the old generation's growth held to HEAP_GROWING_PERCENT_BESIDE. */
export async function withHeapGrowthHeld<T>(build: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT_BESIDE}`);
  try {
    return await build();
  } finally {
    // 0: V8's own factor again.
    setFlagsFromString('--heap-growing-percent=0');
  }
}
