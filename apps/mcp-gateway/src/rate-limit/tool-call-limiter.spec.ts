import { MemoryRateLimitStore, type RateLimitStore } from '@stdreg/server-kit/rate-limit';
import { ToolCallLimiter } from './tool-call-limiter';

function limiter(perKeyPerMinute: number, perIpPerMinute: number, now: () => number = () => 0): ToolCallLimiter {
  return new ToolCallLimiter(new MemoryRateLimitStore({ now }), { perKeyPerMinute, perIpPerMinute, keyPrefix: 'test:' });
}

describe('tool-call limiter', () => {
  it('allows a burst of the per-minute size per key, then refuses with the wait until one token is back', async () => {
    let now = 0;
    const limits = limiter(3, 100, () => now);
    for (let i = 0; i < 3; i++) expect(await limits.take('key-a', '10.0.0.1')).toEqual({ ok: true });
    expect(await limits.take('key-a', '10.0.0.1')).toEqual({ ok: false, limitedBy: 'key', retryAfterSeconds: 20 });
    expect(await limits.take('key-b', '10.0.0.1')).toEqual({ ok: true });
    now += 20_000;
    expect(await limits.take('key-a', '10.0.0.1')).toEqual({ ok: true });
  });

  it('limits an address whatever keys it uses, and calls without a key by address only', async () => {
    const limits = limiter(100, 2);
    expect(await limits.take('key-a', '10.0.0.2')).toEqual({ ok: true });
    expect(await limits.take(null, '10.0.0.2')).toEqual({ ok: true });
    expect(await limits.take('key-c', '10.0.0.2')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect(await limits.take('key-c', '10.0.0.3')).toEqual({ ok: true });
  });

  it('limits an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const limits = limiter(100, 2);
    expect(await limits.take(null, '2001:db8:5:1::1')).toEqual({ ok: true });
    expect(await limits.take(null, '2001:db8:5:1:ffff::2')).toEqual({ ok: true });
    expect(await limits.take(null, '2001:db8:5:1::3')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect(await limits.take(null, '2001:db8:5:2::1')).toEqual({ ok: true });
    expect(await limits.take(null, '10.0.0.9')).toEqual({ ok: true });
    expect(await limits.take(null, '::ffff:10.0.0.9')).toEqual({ ok: true });
    expect(await limits.take(null, '10.0.0.9')).toMatchObject({ ok: false, limitedBy: 'ip' });
  });

  it('takes no token from the key bucket when the address bucket refuses', async () => {
    const limits = limiter(1, 1);
    expect(await limits.take('key-a', '10.0.0.4')).toEqual({ ok: true });
    expect(await limits.take('key-b', '10.0.0.4')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect(await limits.take('key-b', '10.0.0.5')).toEqual({ ok: true });
  });

  it("counts every token of one agent acting for one person against one bucket, and no other agent's or person's", async () => {
    const limits = limiter(2, 100);
    const agent = { kind: 'agent' as const, id: 'client-1', supervisorId: 'uid-1' };
    expect(await limits.takeForAgent(agent)).toEqual({ ok: true });
    expect(await limits.takeForAgent({ ...agent })).toEqual({ ok: true });
    expect(await limits.takeForAgent(agent)).toEqual({ ok: false, limitedBy: 'agent', retryAfterSeconds: 30 });
    expect(await limits.takeForAgent({ ...agent, supervisorId: 'uid-2' })).toEqual({ ok: true });
    expect(await limits.takeForAgent({ ...agent, id: 'client-2' })).toEqual({ ok: true });
  });

  it('refuses every call while its store cannot be reached, and never passes one unlimited', async () => {
    const unreachable: RateLimitStore = { take: () => Promise.reject(new Error('connection refused')), close: async () => {} };
    const limits = new ToolCallLimiter(unreachable, { perKeyPerMinute: 100, perIpPerMinute: 100, keyPrefix: 'test:' });
    expect(await limits.take('key-a', '10.0.0.6')).toEqual({ ok: false, limitedBy: 'unavailable', retryAfterSeconds: 1 });
    expect(await limits.take(null, '10.0.0.6')).toEqual({ ok: false, limitedBy: 'unavailable', retryAfterSeconds: 1 });
    expect(await limits.takeForAgent({ kind: 'agent', id: 'client-1' })).toEqual({
      ok: false,
      limitedBy: 'unavailable',
      retryAfterSeconds: 1,
    });
  });
});
