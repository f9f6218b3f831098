import { Redis } from 'ioredis';
import type { BucketSpec, RateLimitStore, TakeResult } from './token-bucket';

// Every bucket of one request, taken in one atomic script on Redis's own clock, so replicas
// share exact counts: no read-then-write between processes. Tokens are kept as strings to
// keep their fractions; an idle bucket expires once it would be full again.
const TAKE_SCRIPT = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local count = tonumber(ARGV[#KEYS * 2 + 1])
local tokens = {}
local allowed = 1
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[i * 2 - 1])
  local rate = tonumber(ARGV[i * 2])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local current = tonumber(state[1])
  local at = tonumber(state[2])
  if current == nil or at == nil then
    current = capacity
  else
    current = math.min(capacity, current + math.max(0, now - at) * rate)
  end
  tokens[i] = current
  if current < count then allowed = 0 end
end
local reply = { allowed }
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[i * 2 - 1])
  local rate = tonumber(ARGV[i * 2])
  if allowed == 1 then tokens[i] = tokens[i] - count end
  redis.call('HSET', key, 'tokens', string.format('%.17g', tokens[i]), 'at', now)
  redis.call('PEXPIRE', key, math.ceil((capacity - tokens[i]) / rate) + 1000)
  reply[i + 1] = string.format('%.17g', tokens[i])
end
return reply
`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', () => {
      // Each refused command reports its own failure (and the request gets 503); the client reconnects.
    });
    this.redis.defineCommand('takeTokens', { lua: TAKE_SCRIPT });
  }

  async take(buckets: BucketSpec[], count = 1): Promise<TakeResult> {
    const args = [...buckets.flatMap((b) => [String(b.capacity), String(b.perMillisecond)]), String(count)];
    const takeTokens = (this.redis as unknown as { takeTokens(n: number, ...args: string[]): Promise<string[] | number[]> }).takeTokens;
    const reply = await takeTokens.call(this.redis, buckets.length, ...buckets.map((b) => b.key), ...args);
    return {
      allowed: Number(reply[0]) === 1,
      buckets: buckets.map((spec, i) => ({ spec, tokens: Number(reply[i + 1]) })),
    };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
