// Open-loop load: requests arrive as a Poisson process at a steady rate over a pool of N keep-alive
// connections, each timed from its scheduled start (so waiting for a busy connection counts), in
// microseconds. autocannon is closed-loop (or bursty with --overallRate); this measures the latency a
// caller sees at a given load. Prints one JSON object.
// usage: node paced-load.mjs <url> <method> <headers-json> <body|-> <connections> <rate/s> <seconds>
import { Pool } from 'undici';

const [url, method, headersJson, bodyArg, connectionsArg, rateArg, secondsArg] = process.argv.slice(2);
const target = new URL(url);
const pool = new Pool(target.origin, { connections: Number(connectionsArg), pipelining: 1 });
const headers = JSON.parse(headersJson);
const body = bodyArg === '-' ? undefined : bodyArg;
const rate = Number(rateArg);
const durationMs = Number(secondsArg) * 1000;

const latencies = [];
const statusCounts = {};
let errors = 0;
const inFlight = new Set();

async function one(scheduledAt) {
  try {
    const response = await pool.request({ method, path: target.pathname + target.search, headers, body });
    await response.body.dump();
    statusCounts[response.statusCode] = (statusCounts[response.statusCode] ?? 0) + 1;
  } catch {
    errors += 1;
  }
  latencies.push(Number(process.hrtime.bigint() - scheduledAt) / 1000);
}

const start = process.hrtime.bigint();
let next = 0;
while (true) {
  const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (elapsedMs >= durationMs) break;
  if (elapsedMs >= next) {
    const scheduledAt = start + BigInt(Math.round(next * 1e6));
    const request = one(scheduledAt).finally(() => inFlight.delete(request));
    inFlight.add(request);
    next += -Math.log(1 - Math.random()) * (1000 / rate);
    continue;
  }
  await new Promise((resolve) => setTimeout(resolve, Math.min(5, next - elapsedMs)));
}
await Promise.all(inFlight);
await pool.close();

latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null;
const round = (value) => (value === null ? null : Math.round(value));
console.log(
  JSON.stringify({
    requests: latencies.length,
    requestsPerSecond: latencies.length / (durationMs / 1000),
    statusCounts,
    errors,
    latencyMicros: { p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), p999: round(at(0.999)), max: round(latencies.at(-1) ?? null) },
  }),
);
