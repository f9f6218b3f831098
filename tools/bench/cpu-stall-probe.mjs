// How often this CPU is taken away from a process that wants it: a busy loop of setImmediate turns,
// with nothing else to do, records every gap between turns over 0.5 ms. On a quiet machine there are
// none; on a shared virtual machine they are the floor under any latency measured here.
// usage: node cpu-stall-probe.mjs <seconds>   (prints JSON)
import { performance } from 'node:perf_hooks';

const seconds = Number(process.argv[2]);
if (!(seconds > 0)) {
  console.error('usage: node cpu-stall-probe.mjs <seconds>');
  process.exit(2);
}
const STALL_MS = 0.5;
const stalls = [];
const end = performance.now() + seconds * 1000;
let last = performance.now();

function turn() {
  const now = performance.now();
  if (now - last > STALL_MS) stalls.push(now - last);
  last = now;
  if (now < end) return setImmediate(turn);
  stalls.sort((a, b) => a - b);
  const round = (value) => Math.round(value * 1000) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      stallsOverHalfMs: stalls.length,
      stallsOver2Ms: stalls.filter((stall) => stall > 2).length,
      stalledMsPerSecond: round(stalls.reduce((sum, stall) => sum + stall, 0) / seconds),
      longestMs: round(stalls.at(-1) ?? 0),
    }),
  );
}
setImmediate(turn);
