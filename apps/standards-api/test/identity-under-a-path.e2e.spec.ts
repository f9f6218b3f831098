import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { EventRelay } from '../src/events/event-relay';
import { sampleScenario } from './support/sample-scenario';
import { newPartner, startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// An operator mounts identity under /identity behind a reverse proxy (IDENTITY_URL=http://proxy/identity/):
// every call standards-api makes to identity (decisions, subject changes, the event handover, the readiness
// check) goes under that path, and the proxy serves nothing outside it.

let identity: RealIdentity;
let proxy: Server;
let api: RunningStandardsApi;
const served: string[] = [];
const outside: string[] = [];

/** Forwards `/identity/…` to identity as `/…`; anything else is 404. */
function identityUnderAPath(target: URL): Server {
  return createServer((incoming, answer) => {
    const url = incoming.url!;
    if (!url.startsWith('/identity/')) {
      outside.push(url);
      answer.writeHead(404).end();
      return;
    }
    served.push(url.split('?')[0]!);
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: url.slice('/identity'.length), headers: incoming.headers },
      (response) => {
        answer.writeHead(response.statusCode!, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on('error', () => answer.destroy());
    answer.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
}

beforeAll(async () => {
  identity = await startRealIdentity();
  proxy = identityUnderAPath(new URL(identity.url));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  api = await startStandardsApi({
    IDENTITY_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/identity/`,
    IDENTITY_SERVICE_TOKEN: identity.serviceToken,
  });
}, 120_000);
afterAll(async () => {
  await api?.close();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await identity?.stop();
});

describe('standards-api with identity under a path behind a proxy', () => {
  it('asks for decisions, hands events over and checks readiness under that path, never at the proxy root', async () => {
    const partner = await newPartner(identity, 'Behind a proxy');
    await request(api.server)
      .post('/api/v2/split-projects')
      .set({ Authorization: `Bearer ${partner.key}`, 'X-Organization-Id': partner.organizationId })
      .send({ name: 'Proxied', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    expect(await api.app.get(EventRelay).drain()).toBe(1);
    const ready = await request(api.server).get('/readyz').expect(200);
    expect(ready.body.downstream).toEqual({ identity: 'up' });

    expect(outside).toEqual([]);
    expect([...new Set(served)].sort()).toEqual(
      expect.arrayContaining([
        '/identity/healthz',
        '/identity/v1/decisions',
        '/identity/v1/events/handover',
        '/identity/v1/subject-changes',
      ]),
    );
  });
});
