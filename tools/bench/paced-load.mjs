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
// usage: node paced-load.mjs <url> <method> <headers-json> <body|-> <connections> <rate/s> <warm-up s> <seconds>
import { Pool } from 'undici';

const USAGE = 'usage: node paced-load.mjs <url> <method> <headers-json> <body|-> <connections> <rate/s> <warm-up s> <seconds>';
const [url, method, headersJson, bodyArg, connectionsArg, rateArg, warmupArg, secondsArg] = process.argv.slice(2);
if (secondsArg === undefined) {
  console.error(USAGE);
  process.exit(2);
}
const target = new URL(url);
const connections = Number(connectionsArg);
const pool = new Pool(target.origin, { connections, pipelining: 1 });
const headers = JSON.parse(headersJson);
const body = bodyArg === '-' ? undefined : bodyArg;
const rate = Number(rateArg);
const now = () => process.hrtime.bigint();
const micros = (from, to) => Number(to - from) / 1000;

async function send() {
  const response = await pool.request({ method, path: target.pathname + target.search, headers, body });
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
  const one = async (scheduledAt) => {
    const dispatchedAt = now();
    let status = 'error';
    try {
      status = String(await send());
    } catch {
      // counted below as an error sample
    }
    const doneAt = now();
    samples.push({ status, fromSchedule: micros(scheduledAt, doneAt), fromDispatch: micros(dispatchedAt, doneAt), lateness: micros(scheduledAt, dispatchedAt) });
  };
  while (true) {
    const elapsed = now() - start;
    if (elapsed >= durationNs) break;
    if (elapsed >= BigInt(Math.round(nextNs))) {
      const scheduledAt = start + BigInt(Math.round(nextNs));
      const request = one(scheduledAt).finally(() => inFlight.delete(request));
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

function summarize({ samples, seconds }) {
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

await Promise.all(Array.from({ length: connections }, send));
const warmup = summarize(await phase(Number(warmupArg)));
const measured = summarize(await phase(Number(secondsArg)));
await pool.close();
console.log(JSON.stringify({ ...measured, warmup: { requests: warmup.requests, statusCounts: warmup.statusCounts } }));
