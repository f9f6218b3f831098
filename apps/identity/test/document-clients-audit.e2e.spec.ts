import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import request from 'supertest';
import { createTestCa, startClientMetadataServer, type ClientMetadataServer, type TestCa } from '@stdreg/server-kit/testing';
import { AuditService } from '../src/platform/audit-trail/audit.service';
import { auditDocumentClients } from '../src/sign-in/oidc/provider-audit';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// A client known by its Client ID Metadata Document is in the audit log once: the first time identity fetches and
// accepts its document, as a registration (RFC 7591) is. The document server's certificate is of a test CA this
// process trusts (identity runs in it).
let ca: TestCa;
let documents: ClientMetadataServer;
let scene: SigninScene;
const trustedBefore = getCACertificates('default');

beforeAll(async () => {
  ca = await createTestCa();
  setDefaultCACertificates([...trustedBefore, ca.certificatePem]);
  documents = await startClientMetadataServer(ca);
  scene = await startSigninScene({ OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true', OIDC_REGISTRATION: 'open' });
});
afterAll(async () => {
  await scene?.close();
  await documents?.close();
  await ca?.close();
  setDefaultCACertificates(trustedBefore);
});

function publishedAgent(path: string, clientName = 'Desk Agent'): string {
  const clientId = documents.url(path);
  documents.publish(path, { client_id: clientId, client_name: clientName, redirect_uris: ['http://127.0.0.1/callback'] });
  return clientId;
}

/** An agent host starting a sign-in with its client id, as far as identity's answer (the sign-in page, or an error). */
async function authorizationRequest(clientId: string): Promise<number> {
  const url = new URL(`${scene.identity.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:49152/callback',
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

const registrationsOf = async (clientId: string) =>
  (
    await request(scene.identity.server)
      .get('/v1/audit')
      .query({ action: 'clients.register', target: clientId })
      .set('Authorization', `Bearer ${scene.identity.platformKey}`)
      .expect(200)
  ).body.items;

describe('a client known by its metadata document', () => {
  it('is recorded as registered the first time identity fetches and accepts its document, and not at its later uses', async () => {
    const clientId = publishedAgent('/agents/desk.json');
    expect(await authorizationRequest(clientId)).toBe(303);
    expect(documents.fetched).toContain('/agents/desk.json');
    expect(await registrationsOf(clientId)).toEqual([
      expect.objectContaining({
        actorKind: 'anonymous',
        actorId: expect.stringMatching(/127\.0\.0\.1$/),
        target: clientId,
        organizationId: null,
        detail: { clientName: 'Desk Agent', redirectUris: ['http://127.0.0.1/callback'], metadataDocument: true },
      }),
    ]);
    expect(await authorizationRequest(clientId)).toBe(303);
    expect(await authorizationRequest(clientId)).toBe(303);
    expect(await registrationsOf(clientId)).toHaveLength(1);
  });

  it('is not recorded when its document is refused', async () => {
    const path = '/agents/plain-http.json';
    const clientId = documents.url(path);
    documents.publish(path, { client_id: clientId, client_name: 'Plain', redirect_uris: ['http://agent.example/callback'] });
    expect(await authorizationRequest(clientId)).not.toBe(303);
    expect(await registrationsOf(clientId)).toEqual([]);
  });

  it('is recorded once by two processes that each see it for the first time: the log, not a process, says whether it was', async () => {
    const clientId = publishedAgent('/agents/two-replicas.json');
    const audit = scene.identity.app.get(AuditService);
    const client = { clientId, clientName: 'Desk Agent', redirectUris: ['http://127.0.0.1/callback'] };
    const [first, second] = [auditDocumentClients(audit), auditDocumentClients(audit)];
    await first(undefined, client);
    await second(undefined, client);
    expect(await registrationsOf(clientId)).toEqual([expect.objectContaining({ actorKind: 'system', actorId: 'sign-in' })]);
  });
});
