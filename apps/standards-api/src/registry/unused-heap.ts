// After a release loads, V8 keeps the heap its build grew to (about twice what stays live) until its memory
// reducer runs, a minute or more later, when the process is idle; a replica that starts serving at once holds
// it meanwhile. V8's last-resort collection (the one a low-memory notification runs: full collections that
// compact the heap) gives the unused pages back at once. Node offers it only through the `gc` function of
// --expose-gc, which a context created after the flag is set has (docs/decisions.md, issue 30).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collect: Collect | undefined;

/** Collects every unreachable object and returns the heap's empty pages to the system; blocks for the collection (seconds at full size). */
export function giveBackUnusedHeap(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
