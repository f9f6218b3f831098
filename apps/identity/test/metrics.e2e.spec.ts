import request from 'supertest';
import { SERVICE_TOKEN, startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
beforeAll(async () => (identity = await startIdentity({ RATE_LIMIT_WAITLIST_PER_HOUR: '1' })));
afterAll(() => identity.close());

async function metric(series: string): Promise<number> {
  const { text } = await request(identity.server).get('/metrics').expect(200);
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('identity metrics at /metrics (outside /v1)', () => {
  it('counts the decisions it answers by outcome', async () => {
    const allowed = await metric('authorization_decisions_total{side="decided",outcome="allow"}');
    const denied = await metric('authorization_decisions_total{side="decided",outcome="deny"}');
    const partner = await identity.newAppKey();
    const ask = (credential: string) =>
      request(identity.server)
        .post('/v1/decisions')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({
          credential: { kind: 'api_key', value: credential },
          action: 'split-project:draft',
          resource: { organizationId: partner.organizationId },
        })
        .expect(200);
    expect((await ask(partner.secret)).body.decision).toBe('allow');
    expect((await ask('stdreg_app_nosuchkey_000')).body.decision).toBe('deny');
    expect((await ask('stdreg_app_nosuchkey_001')).body.decision).toBe('deny');
    expect(await metric('authorization_decisions_total{side="decided",outcome="allow"}')).toBe(allowed + 1);
    expect(await metric('authorization_decisions_total{side="decided",outcome="deny"}')).toBe(denied + 2);
  });

  it('counts rate-limit rejections by bucket', async () => {
    const before = await metric('rate_limit_rejections_total{bucket="waitlist"}');
    const ask = () => request(identity.server).post('/v1/waitlist').send({});
    expect((await ask()).status).not.toBe(429);
    expect((await ask()).status).toBe(429);
    expect(await metric('rate_limit_rejections_total{bucket="waitlist"}')).toBe(before + 1);
  });

  it('labels requests by route template, e.g. the decision endpoint', async () => {
    const { text } = await request(identity.server).get('/metrics').expect(200);
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/v1\/decisions",status="200"\} [1-9]/);
  });
});
