// The Redis rate limiter alone, without HTTP: times take() calls of a token-bucket script on Redis.
// The script is the bench's own one-bucket copy of TAKE_SCRIPT in
// libs/server-kit/src/rate-limit/redis-rate-limit.store.ts (same TIME, HMGET, HSET and PEXPIRE calls),
// sent the way the service sends it: ioredis defineCommand (EVALSHA), one connection.
// The bundle does not export RedisRateLimitStore (dist/apps/identity/main.js starts the service when
// imported), so the service's own class cannot be used here.
// Usage: node tools/bench/redis-take.mjs <redis url> <key> <takes> <concurrency>[,<concurrency>...]
// Prints JSON: per concurrency, microseconds per take (p50, p90, p99, max, mean) and takes/s.
import { Redis } from 'ioredis';

const TAKE_ONE_BUCKET = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local current = tonumber(state[1])
local at = tonumber(state[2])
if current == nil or at == nil then
  current = capacity
else
  current = math.min(capacity, current + math.max(0, now - at) * rate)
end
local allowed = 1
if current < 1 then allowed = 0 end
if allowed == 1 then current = current - 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', current), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - current) / rate) + 1000)
return { allowed, string.format('%.17g', current) }
`;

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

const redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 });
redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_ONE_BUCKET });

let refused = 0;
async function take() {
  const [allowed] = await redis.takeToken(key, String(CAPACITY), String(PER_MILLISECOND));
  if (Number(allowed) !== 1) refused++;
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
  await redis.del(key).catch(() => {});
  redis.disconnect();
}
