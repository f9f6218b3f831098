// Open-loop load: requests arrive as a Poisson process at a steady rate over a pool of N keep-alive
// connections. autocannon is closed-loop (or bursty with --overallRate); this measures the latency a
// caller sees at a given load. Each request is timed twice, in microseconds:
//   - from its scheduled arrival (waiting for a free connection and any lateness of this loader count:
//     no coordinated omission), and
//   - from the moment it was handed to the connection (the service's answer time as a caller sees it).
// The loader's own lateness (dispatch − schedule) is reported too, so a slow loader cannot pass for a
// slow service. All N connections are opened first, then a warm-up at the same rate runs in this same
// process (JIT, connection pools) and is discarded. The loader runs alone on its CPU, so it polls the
// clock with setImmediate when the next arrival is under 2 ms away instead of trusting setTimeout's
// millisecond granularity.
// With a second URL and a slice length, the arrivals go to the two services in turn, one slice each
// (each with its own N connections): a paired comparison in which both meet the same machine, since
// this machine's noise comes in bursts longer than a request and shorter than a run. Each target then
// gets its own figures, under `targets`.
// usage: node paced-load.mjs <url> <method> <headers-json> <body|-> <connections> <rate/s> <warm-up s> <seconds>
//        [<second url> <slice s>]
import { Pool } from 'undici';

const USAGE =
  'usage: node paced-load.mjs <url> <method> <headers-json> <body|-> <connections> <rate/s> <warm-up s> <seconds> [<second url> <slice s>]';
const [url, method, headersJson, bodyArg, connectionsArg, rateArg, warmupArg, secondsArg, secondUrl, sliceArg] = process.argv.slice(2);
if (secondsArg === undefined || (secondUrl !== undefined && !(Number(sliceArg) > 0))) {
  console.error(USAGE);
  process.exit(2);
}
const connections = Number(connectionsArg);
const targets = [url, ...(secondUrl ? [secondUrl] : [])].map((address) => {
  const target = new URL(address);
  return { path: target.pathname + target.search, pool: new Pool(target.origin, { connections, pipelining: 1 }) };
});
const sliceNs = secondUrl ? Number(sliceArg) * 1e9 : Infinity;
const headers = JSON.parse(headersJson);
const body = bodyArg === '-' ? undefined : bodyArg;
const rate = Number(rateArg);
const now = () => process.hrtime.bigint();
const micros = (from, to) => Number(to - from) / 1000;

async function send(target) {
  const response = await target.pool.request({ method, path: target.path, headers, body });
  await response.body.dump();
  return response.statusCode;
}

/** Runs the Poisson arrivals for `seconds`; returns one sample per request. */
async function phase(seconds) {
  const samples = [];
  const inFlight = new Set();
  const durationNs = BigInt(Math.round(seconds * 1e9));
  const start = now();
  let nextNs = 0;
  let idle = 0;
  const one = async (scheduledAt, targetIndex) => {
    const dispatchedAt = now();
    let status = 'error';
    try {
      status = String(await send(targets[targetIndex]));
    } catch {
      // counted below as an error sample
    }
    const doneAt = now();
    samples.push({
      targetIndex,
      status,
      fromSchedule: micros(scheduledAt, doneAt),
      fromDispatch: micros(dispatchedAt, doneAt),
      lateness: micros(scheduledAt, dispatchedAt),
    });
  };
  while (true) {
    const elapsed = now() - start;
    if (elapsed >= durationNs) break;
    if (elapsed >= BigInt(Math.round(nextNs))) {
      const scheduledAt = start + BigInt(Math.round(nextNs));
      const targetIndex = Math.floor(nextNs / sliceNs) % targets.length;
      const request = one(scheduledAt, targetIndex).finally(() => inFlight.delete(request));
      inFlight.add(request);
      nextNs += -Math.log(1 - Math.random()) * (1e9 / rate);
      continue;
    }
    const waitMs = (nextNs - Number(elapsed)) / 1e6;
    if (waitMs > 2) await new Promise((resolve) => setTimeout(resolve, waitMs - 1.5));
    else await new Promise((resolve) => setImmediate(resolve));
    idle += 1;
  }
  await Promise.all(inFlight);
  return { samples, seconds, idle };
}

function summarize(samples, seconds) {
  const statusCounts = {};
  for (const sample of samples) statusCounts[sample.status] = (statusCounts[sample.status] ?? 0) + 1;
  const quantiles = (key) => {
    const values = samples.map((sample) => sample[key]).sort((a, b) => a - b);
    const at = (q) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? null;
    const round = (value) => (value === null ? null : Math.round(value));
    return { p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), p999: round(at(0.999)), max: round(values.at(-1) ?? null) };
  };
  return {
    requests: samples.length,
    requestsPerSecond: samples.length / seconds,
    statusCounts,
    errors: statusCounts.error ?? 0,
    latencyMicros: quantiles('fromSchedule'),
    serviceMicros: quantiles('fromDispatch'),
    loaderLatenessMicros: quantiles('lateness'),
  };
}

/** Figures for one target: its samples over the share of the phase it was offered load. */
function summarizeTarget(phaseResult, targetIndex) {
  const share = targets.length === 1 ? 1 : 1 / targets.length;
  return summarize(
    phaseResult.samples.filter((sample) => sample.targetIndex === targetIndex),
    phaseResult.seconds * share,
  );
}

for (const target of targets) await Promise.all(Array.from({ length: connections }, () => send(target)));
const warmup = await phase(Number(warmupArg));
const measured = await phase(Number(secondsArg));
await Promise.all(targets.map((target) => target.pool.close()));
const report = (targetIndex) => {
  const warm = summarizeTarget(warmup, targetIndex);
  return { ...summarizeTarget(measured, targetIndex), warmup: { requests: warm.requests, statusCounts: warm.statusCounts } };
};
console.log(
  JSON.stringify(targets.length === 1 ? report(0) : { sliceSeconds: Number(sliceArg), targets: targets.map((_, i) => report(i)) }),
);
