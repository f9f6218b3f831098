// The Redis rate limiter alone, without HTTP: times take() calls of the services' own Redis store
// (libs/server-kit/src/rate-limit/redis-rate-limit.store.ts, loaded from source: Node strips its types)
// with one bucket: its TAKE_SCRIPT sent the way the services send it, ioredis defineCommand (EVALSHA)
// on one connection.
// Usage: node tools/bench/redis-take.mjs <redis url> <key> <takes> <concurrency>[,<concurrency>...]
// Prints JSON: per concurrency, microseconds per take (p50, p90, p99, max, mean) and takes/s.
import { RedisRateLimitStore } from '../../libs/server-kit/src/rate-limit/redis-rate-limit.store.ts';

// A bucket that never empties during the run, so every take is allowed (checked).
const CAPACITY = 1_000_000_000;
const PER_MILLISECOND = CAPACITY / 60_000;
const WARMUP_TAKES = 2_000;

const [url, key, takesArg, concurrencyArg] = process.argv.slice(2);
const takes = Number(takesArg);
const concurrencies = (concurrencyArg ?? '').split(',').map(Number);
if (!url || !key || !(takes > 0) || concurrencies.some((c) => !(c > 0))) {
  console.error('usage: redis-take.mjs <redis url> <key> <takes> <concurrency>[,<concurrency>...]');
  process.exit(2);
}

const store = new RedisRateLimitStore(url);
const bucket = [{ key, capacity: CAPACITY, perMillisecond: PER_MILLISECOND }];

let refused = 0;
async function take() {
  if (!(await store.take(bucket)).allowed) refused++;
}

/** The store refuses commands until it is connected (no offline queue), as in the services. */
async function connected() {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (
      await store.ping().then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis at ${url} did not answer`);
}

/** `count` takes by `concurrency` workers, each take timed on its own; returns microseconds per take. */
async function timedTakes(count, concurrency) {
  const micros = new Float64Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const start = process.hrtime.bigint();
      await take();
      micros[index] = Number(process.hrtime.bigint() - start) / 1000;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { micros: micros.sort(), seconds };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (value) => Math.round(value * 10) / 10;

try {
  await connected();
  const runs = [];
  for (const concurrency of concurrencies) {
    await timedTakes(WARMUP_TAKES, concurrency);
    const { micros, seconds } = await timedTakes(takes, concurrency);
    runs.push({
      concurrency,
      takes,
      seconds: Math.round(seconds * 1000) / 1000,
      takesPerSecond: Math.round(takes / seconds),
      p50Micros: round(percentile(micros, 50)),
      p90Micros: round(percentile(micros, 90)),
      p99Micros: round(percentile(micros, 99)),
      maxMicros: round(micros[micros.length - 1]),
      meanMicros: round(micros.reduce((sum, value) => sum + value, 0) / micros.length),
    });
  }
  if (refused > 0) throw new Error(`${refused} takes were refused by a bucket that should never empty`);
  console.log(JSON.stringify({ warmupTakes: WARMUP_TAKES, capacity: CAPACITY, runs }));
} finally {
  // The bucket expires by itself about a second after its last take (the script's PEXPIRE).
  await store.close();
}
