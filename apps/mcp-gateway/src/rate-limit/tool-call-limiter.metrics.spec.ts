import { metricsText } from '@stdreg/server-kit';
import { MemoryRateLimitStore } from '@stdreg/server-kit/rate-limit';
import { ToolCallLimiter } from './tool-call-limiter';

async function rejections(bucket: string): Promise<number> {
  const line = (await metricsText()).split('\n').find((l) => l.startsWith(`rate_limit_rejections_total{bucket="${bucket}"} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('tool-call limiter metrics', () => {
  it('counts each refused call by the bucket that refused it, and no allowed one', async () => {
    const before = { key: await rejections('tool-call-key'), ip: await rejections('tool-call-ip') };
    const limiter = new ToolCallLimiter(new MemoryRateLimitStore({ now: () => 0 }), {
      perKeyPerMinute: 1,
      perIpPerMinute: 2,
      keyPrefix: 'test:',
    });
    expect(await limiter.take('key-a', '10.0.0.9')).toEqual({ ok: true });
    expect(await limiter.take('key-a', '10.0.0.9')).toMatchObject({ ok: false, limitedBy: 'key' });
    expect(await limiter.take(null, '10.0.0.9')).toEqual({ ok: true });
    expect(await limiter.take(null, '10.0.0.9')).toMatchObject({ ok: false, limitedBy: 'ip' });
    expect({ key: await rejections('tool-call-key'), ip: await rejections('tool-call-ip') }).toEqual({
      key: before.key + 1,
      ip: before.ip + 1,
    });
  });
});
