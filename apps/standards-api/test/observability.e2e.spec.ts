import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';
import { credentialDigest, DECISION_SIGNATURE_HEADER, decisionSignature } from '@stdreg/contracts';

const ORG = '01900000-0000-7000-8000-0000000000a1';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** Stands in for identity's decision endpoint, keeping the headers of every question. */
let identity: Server;
const questions: IncomingHttpHeaders[] = [];
let api: RunningStandardsApi;

beforeAll(async () => {
  identity = createServer((req, res) => {
    questions.push(req.headers);
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const asked = JSON.parse(raw) as {
        credential: { kind: string; value: string };
        action: string;
        resource: Record<string, string>;
        nonce: string;
      };
      const question = {
        action: asked.action,
        resource: asked.resource,
        credentialDigest: credentialDigest(asked.credential),
        nonce: asked.nonce,
      };
      const body = JSON.stringify({ decision: 'deny', reason: 'role_required', subject: null, question });
      res
        .writeHead(200, {
          'content-type': 'application/json',
          [DECISION_SIGNATURE_HEADER]: decisionSignature('test-service-token-0123456789abcdef', body),
        })
        .end(body);
    });
  });
  await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
  const identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
  api = await startStandardsApi({
    IDENTITY_URL: identityUrl,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
  });
}, 120_000);
afterAll(async () => {
  await api.close();
  identity.closeAllConnections();
  await new Promise<void>((resolve) => identity.close(() => resolve()));
});

describe('standards-api observability', () => {
  it('asks identity within the trace of the incoming request, as its child', async () => {
    await request(api.server)
      .get('/api/v2/split-projects')
      .set({ Authorization: 'Bearer member-of:x', 'X-Organization-Id': ORG, traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` })
      .expect(403);
    const traceparent = questions.at(-1)!['traceparent'] as string;
    expect(traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(traceparent).not.toContain('00f067aa0ba902b7');
  });

  it('starts a trace for a request that arrives without one and passes that on', async () => {
    await request(api.server)
      .get('/api/v2/split-projects')
      .set({ Authorization: 'Bearer member-of:x', 'X-Organization-Id': ORG })
      .expect(403);
    const traceparent = questions.at(-1)!['traceparent'] as string;
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(traceparent).not.toContain(TRACE_ID);
  });

  it('serves metrics outside /api/v2: denied decisions asked, and requests by route template', async () => {
    const { text } = await request(api.server).get('/metrics').expect(200);
    expect(text).toMatch(/authorization_decisions_total\{side="asked",outcome="deny"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v2\/split-projects",status="403"\} [1-9]/);
    await request(api.server).get('/api/v2/metrics').expect(404);
  });
});
