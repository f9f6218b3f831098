// The W3C trace of a request crosses into the real identity service (its built artifact) and into its logs.
import request from 'supertest';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const TRACE_ID = '5e0c63257de34c92bf9efcd03927272e';
let identity: RealIdentity;
let api: RunningStandardsApi;
let identityLog = '';

beforeAll(async () => {
  identity = await startRealIdentity({ env: { LOG_LEVEL: 'debug' }, onOutput: (chunk) => (identityLog += chunk) });
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: identity.serviceToken, AUTHZ_READ_CACHE_MS: '0' });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await identity?.stop();
});

function decisionLines(): Record<string, unknown>[] {
  return identityLog
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['msg'] === 'request answered' && entry['route'] === '/v1/decisions');
}

it("identity answers standards-api's question within the caller's trace, and logs it with that trace id", async () => {
  await request(api.server)
    .get('/api/v2/split-projects')
    .set({
      Authorization: `Bearer ${identity.platformKey}`,
      'X-Organization-Id': '01900000-0000-7000-8000-0000000000c1',
      traceparent: `00-${TRACE_ID}-a3ce929d0e0e4736-01`,
    })
    .expect(200);
  for (let attempt = 0; attempt < 40 && !decisionLines().some((e) => e['traceId'] === TRACE_ID); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(decisionLines().filter((e) => e['traceId'] === TRACE_ID)).toEqual([
    expect.objectContaining({ service: 'identity', method: 'POST', status: 200, traceId: TRACE_ID, requestId: expect.any(String) }),
  ]);
});
