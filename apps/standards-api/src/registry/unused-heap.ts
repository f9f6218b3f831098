// After a release loads, V8 keeps the heap its build grew to (about twice what stays live) until its memory
// reducer runs, a minute or more later, when the process is idle; a replica that starts serving at once holds
// it meanwhile. V8's last-resort collection (the one a low-memory notification runs: full collections that
// compact the heap) gives the unused pages back at once. Node offers it only through the `gc` function of
// --expose-gc, which a context created after the flag is set has (docs/decisions.md, issue 30).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * How much V8 lets the old generation grow past what the last full collection left live, in percent: its own
 * factor when it saves memory (1.3). Left to itself, V8 grows it up to four times the live heap while the
 * process allocates fast (the reads of a page after another, the build of the next release beside the one
 * serving), and gives the pages back only once idle.
 */
const HEAP_GROWING_PERCENT = 30;

let collect: Collect | undefined;

/**
 * Collects every unreachable object and returns the heap's empty pages to the system (blocking for the
 * collection: seconds at full size), and from then on keeps the heap's growth to HEAP_GROWING_PERCENT.
 */
export function giveBackUnusedHeap(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
