import { ToolCallLimiter } from './tool-call-limiter';

describe('tool-call limiter', () => {
  it('allows a burst of the per-minute size per key, then refuses with the wait until one token is back', () => {
    let now = 0;
    const limiter = new ToolCallLimiter({ perKeyPerMinute: 3, perIpPerMinute: 100, now: () => now });
    for (let i = 0; i < 3; i++) expect(limiter.take('key-a', '10.0.0.1')).toEqual({ ok: true });
    expect(limiter.take('key-a', '10.0.0.1')).toEqual({ ok: false, limitedBy: 'key', retryAfterSeconds: 20 });
    expect(limiter.take('key-b', '10.0.0.1')).toEqual({ ok: true });
    now += 20_000;
    expect(limiter.take('key-a', '10.0.0.1')).toEqual({ ok: true });
  });

  it('limits an address whatever keys it uses, and calls without a key by address only', () => {
    const limiter = new ToolCallLimiter({ perKeyPerMinute: 100, perIpPerMinute: 2, now: () => 0 });
    expect(limiter.take('key-a', '10.0.0.2')).toEqual({ ok: true });
    expect(limiter.take(null, '10.0.0.2')).toEqual({ ok: true });
    expect(limiter.take('key-c', '10.0.0.2')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect(limiter.take('key-c', '10.0.0.3')).toEqual({ ok: true });
  });

  it('takes no token from the key bucket when the address bucket refuses', () => {
    const limiter = new ToolCallLimiter({ perKeyPerMinute: 1, perIpPerMinute: 1, now: () => 0 });
    expect(limiter.take('key-a', '10.0.0.4')).toEqual({ ok: true });
    expect(limiter.take('key-b', '10.0.0.4')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect(limiter.take('key-b', '10.0.0.5')).toEqual({ ok: true });
  });
});
