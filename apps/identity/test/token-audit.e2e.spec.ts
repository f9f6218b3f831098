import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { SERVICE_TOKEN } from './support/identity-app';
import { API_AUDIENCE, FormBrowser, createUserWithPassword, type SignedUpUser } from './support/signin-fixture';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// What happens to tokens is in the audit log: an agent client's registration, the tokens it gets (one refresh entry
// per grant per window), the tokens exchanged for it, and every revocation with its path; never a token itself.
const MCP_RESOURCE = 'http://127.0.0.1:3903/mcp';
const AGENT_SCOPES = 'registry:read projects:read';
const PASSWORD = 'a long and unusual passphrase';

interface Entry {
  actorKind: string;
  actorId: string;
  action: string;
  target: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}

let scene: SigninScene;
let person: SignedUpUser;
beforeAll(async () => {
  scene = await startSigninScene({ OIDC_MCP_RESOURCE: `${MCP_RESOURCE}/`, OIDC_REGISTRATION: 'open' });
  person = await createUserWithPassword(scene.identity, scene.app, PASSWORD);
});
afterAll(() => scene?.close());

async function entries(query: Record<string, string>): Promise<Entry[]> {
  const { body } = await request(scene.identity.server)
    .get('/v1/audit')
    .query({ ...query, limit: '100' })
    .set('Authorization', `Bearer ${scene.identity.platformKey}`)
    .expect(200);
  return body.items as Entry[];
}

async function registeredAgent(): Promise<string> {
  const response = await fetch(`${scene.identity.issuer}/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Ledger Agent', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

async function agentConfig(clientId: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(scene.identity.issuer), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
}

/** An agent's sign-in through the pages up to the code; answers the token request to make with it. */
async function agentSignIn(
  clientId: string,
): Promise<{ config: oidc.Configuration; browser: FormBrowser; redeem: () => Promise<oidc.TokenEndpointResponse> }> {
  const config = await agentConfig(clientId);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const redirectUri = scene.callback.redirectUri;
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: AGENT_SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: MCP_RESOURCE,
    prompt: 'consent',
  });
  const browser = new FormBrowser();
  const login = await browser.follow(url.toString(), redirectUri);
  const afterLogin = await browser.submit(login, { email: person.email, password: PASSWORD }, '/login');
  const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
  const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
  const back = await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), redirectUri);
  return {
    config,
    browser,
    redeem: () =>
      oidc.authorizationCodeGrant(
        config,
        new URL(back.url),
        { pkceCodeVerifier: verifier, expectedState: state },
        { resource: MCP_RESOURCE },
      ),
  };
}

async function agentTokens(clientId: string): Promise<{ config: oidc.Configuration; tokens: oidc.TokenEndpointResponse }> {
  const { config, redeem } = await agentSignIn(clientId);
  return { config, tokens: await redeem() };
}

function revoke(clientId: string, token: string, hint: 'access_token' | 'refresh_token') {
  return request(scene.identity.server)
    .post('/oidc/token/revocation')
    .type('form')
    .send({ client_id: clientId, token, token_type_hint: hint })
    .expect(200);
}

function expectNoSecretIn(found: Entry[], secrets: (string | undefined)[]): void {
  const text = JSON.stringify(found);
  for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
}

describe('what happens to an agent’s tokens is in the audit log', () => {
  it('records the registration of an agent client, by the address it came from', async () => {
    const clientId = await registeredAgent();
    expect(await entries({ target: clientId, action: 'clients.register' })).toEqual([
      expect.objectContaining({
        actorKind: 'anonymous',
        actorId: expect.stringMatching(/127\.0\.0\.1/),
        outcome: 'success',
        detail: expect.objectContaining({ clientName: 'Ledger Agent', redirectUris: ['http://127.0.0.1/callback'] }),
      }),
    ]);
  });

  it('records the tokens a sign-in issues: the agent under the person, the grant, the jti, scopes and resource, never a token', async () => {
    const clientId = await registeredAgent();
    const { tokens } = await agentTokens(clientId);
    const claims = decodeJwt(tokens.access_token);
    const grantId = claims['gid'] as string;
    const issued = await entries({ target: grantId, action: 'tokens.issue' });
    expect(issued).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        requestId: expect.any(String),
        actorKind: 'agent',
        actorId: clientId,
        action: 'tokens.issue',
        target: grantId,
        // A person's sign-in concerns no organization: an agent token is for a person.
        organizationId: null,
        outcome: 'success',
        detail: {
          clientId,
          grantType: 'authorization_code',
          grantId,
          jti: claims.jti,
          scope: expect.arrayContaining(AGENT_SCOPES.split(' ')),
          resource: MCP_RESOURCE,
          expiresIn: claims.exp! - claims.iat!,
          refreshTokenIssued: true,
          supervisor: person.uid,
        },
      },
    ]);
    expectNoSecretIn(issued, [tokens.access_token, tokens.refresh_token]);
  });

  it('records a grant’s refreshes once per window: the first refresh’s token, not every one', async () => {
    const clientId = await registeredAgent();
    const { config, tokens } = await agentTokens(clientId);
    const grantId = decodeJwt(tokens.access_token)['gid'] as string;
    const first = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP_RESOURCE });
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!, { resource: MCP_RESOURCE });
    const refreshes = await entries({ target: grantId, action: 'tokens.refresh' });
    expect(refreshes).toEqual([
      expect.objectContaining({
        actorKind: 'agent',
        actorId: clientId,
        detail: expect.objectContaining({
          grantType: 'refresh_token',
          grantId,
          jti: decodeJwt(first.access_token).jti,
          windowSeconds: 3600,
          supervisor: person.uid,
        }),
      }),
    ]);
    expectNoSecretIn(refreshes, [first.access_token, first.refresh_token, second.access_token, second.refresh_token, tokens.refresh_token]);
  });

  it('records a revoked refresh token with its grant, and a revoked access token once, by its jti', async () => {
    const clientId = await registeredAgent();
    const { tokens } = await agentTokens(clientId);
    const claims = decodeJwt(tokens.access_token);
    const grantId = claims['gid'] as string;
    await revoke(clientId, tokens.access_token, 'access_token');
    await revoke(clientId, tokens.access_token, 'access_token');
    await revoke(clientId, tokens.refresh_token!, 'refresh_token');
    const revoked = await entries({ target: grantId, action: 'tokens.revoke' });
    expect(revoked).toEqual([
      expect.objectContaining({
        actorKind: 'agent',
        actorId: clientId,
        detail: {
          path: 'revocation_endpoint',
          clientId,
          tokenType: 'access_token',
          jti: claims.jti,
          grantEnded: false,
          supervisor: person.uid,
        },
      }),
      expect.objectContaining({
        actorKind: 'agent',
        actorId: clientId,
        detail: {
          path: 'revocation_endpoint',
          clientId,
          accountId: person.uid,
          tokenType: 'refresh_token',
          grantEnded: true,
          supervisor: person.uid,
        },
      }),
    ]);
    expectNoSecretIn(revoked, [tokens.access_token, tokens.refresh_token]);
  });

  it('records a grant ended by a refresh token used twice as identity’s doing, and one ended by signing out as the person’s', async () => {
    const replayedClient = await registeredAgent();
    const { config, tokens } = await agentTokens(replayedClient);
    const replayedGrant = decodeJwt(tokens.access_token)['gid'] as string;
    await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP_RESOURCE });
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP_RESOURCE })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await entries({ target: replayedGrant, action: 'tokens.revoke' })).toEqual([
      expect.objectContaining({
        actorKind: 'system',
        actorId: 'sign-in',
        detail: { path: 'replayed_refresh_token', clientId: replayedClient, accountId: person.uid, grantEnded: true },
      }),
    ]);

    const signedOutClient = await registeredAgent();
    const signIn = await agentSignIn(signedOutClient);
    const signedOutGrant = decodeJwt((await signIn.redeem()).access_token)['gid'] as string;
    const question = await signIn.browser.get(`${scene.identity.issuer}/session/end?client_id=${encodeURIComponent(signedOutClient)}`);
    const action = /id="op.logoutForm" method="post" action="([^"]+)"/.exec(question.text)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.text)?.[1];
    expect(action && xsrf).toBeTruthy();
    await signIn.browser.post(new URL(action!, question.url).toString(), { xsrf: xsrf!, logout: 'yes' });
    expect(await entries({ target: signedOutGrant, action: 'tokens.revoke' })).toEqual([
      expect.objectContaining({
        actorKind: 'human',
        actorId: person.uid,
        detail: { path: 'sign_out', clientId: signedOutClient, accountId: person.uid, grantEnded: true },
      }),
    ]);
  });

  it('names no opaque token: a partner app’s userinfo token is recorded without its id, and its revocation keeps the grant', async () => {
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config);
    const callbackUrl = await scene.flow.signIn(authorization, person.email, PASSWORD);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: authorization.verifier,
      expectedState: authorization.state,
    });
    expect(tokens.access_token.split('.')).toHaveLength(1);
    const issued = (await entries({ actor: person.uid, action: 'tokens.issue' })).filter(
      (entry) => entry.detail['clientId'] === scene.app.clientId,
    );
    expect(issued.at(-1)).toMatchObject({
      actorKind: 'human',
      actorId: person.uid,
      detail: { grantType: 'authorization_code', jti: null, resource: null, refreshTokenIssued: true },
    });
    const grantId = issued.at(-1)!.target!;
    await request(scene.identity.server)
      .post('/oidc/token/revocation')
      .auth(scene.app.clientId, scene.app.clientSecret)
      .type('form')
      .send({ token: tokens.access_token, token_type_hint: 'access_token' })
      .expect(200);
    const revoked = await entries({ target: grantId, action: 'tokens.revoke' });
    expect(revoked).toEqual([
      expect.objectContaining({
        actorKind: 'human',
        actorId: person.uid,
        detail: { path: 'revocation_endpoint', clientId: scene.app.clientId, tokenType: 'access_token', grantEnded: false },
      }),
    ]);
    expectNoSecretIn([...issued, ...revoked], [tokens.access_token, tokens.refresh_token]);
  });

  it('does not record a revocation the provider refused: a token of another client', async () => {
    const owner = await registeredAgent();
    const other = await registeredAgent();
    const { tokens } = await agentTokens(owner);
    const grantId = decodeJwt(tokens.access_token)['gid'] as string;
    await revoke(other, tokens.refresh_token!, 'refresh_token');
    expect(await entries({ target: grantId, action: 'tokens.revoke' })).toEqual([]);
  });

  it('records a token exchanged for the standards API: the agent token it came from and the new token’s jti', async () => {
    const clientId = await registeredAgent();
    const { tokens } = await agentTokens(clientId);
    const subject = decodeJwt(tokens.access_token);
    const { body } = await request(scene.identity.server)
      .post('/v1/token-exchange')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        subject_token: tokens.access_token,
        scope: 'registry:read',
      })
      .expect(200);
    const exchanged = decodeJwt(body.access_token as string);
    const found = await entries({ target: subject['gid'] as string, action: 'tokens.exchange' });
    expect(found).toEqual([
      expect.objectContaining({
        actorKind: 'agent',
        actorId: clientId,
        detail: {
          clientId,
          subjectTokenJti: subject.jti,
          jti: exchanged.jti,
          scope: ['registry:read'],
          resource: API_AUDIENCE,
          expiresAt: new Date(exchanged.exp! * 1000).toISOString(),
          supervisor: person.uid,
        },
      }),
    ]);
    expectNoSecretIn(found, [tokens.access_token, body.access_token as string]);
  });

  it('answers an error and hands out no token when its entry cannot be written', async () => {
    const clientId = await registeredAgent();
    const { redeem } = await agentSignIn(clientId);
    const { dataSource } = scene.identity;
    await dataSource.query(`CREATE FUNCTION refuse_token_entry() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'tokens.issue' THEN RAISE EXCEPTION 'planted failure'; END IF; RETURN NEW; END $$`);
    await dataSource.query(
      'CREATE TRIGGER refuse_token_entry BEFORE INSERT ON audit_entry FOR EACH ROW EXECUTE FUNCTION refuse_token_entry()',
    );
    try {
      await expect(redeem()).rejects.toBeDefined();
    } finally {
      await dataSource.query('DROP TRIGGER refuse_token_entry ON audit_entry');
      await dataSource.query('DROP FUNCTION refuse_token_entry()');
    }
    const issued = await entries({ action: 'tokens.issue' });
    expect(issued.filter((entry) => entry.actorId === clientId)).toEqual([]);
  });
});

describe('a new password or the person’s deletion ends their grants, each in the audit log', () => {
  it('records each grant the new password ended, with its client, in the transaction that set it', async () => {
    const someone = await createUserWithPassword(scene.identity, scene.app, PASSWORD);
    const before = person;
    person = someone;
    try {
      const clientId = await registeredAgent();
      const { tokens } = await agentTokens(clientId);
      const grantId = decodeJwt(tokens.access_token)['gid'] as string;
      const setup = await request(scene.identity.server)
        .post(`/v1/users/${someone.mirrorId}/password-setup`)
        .set('Authorization', `Bearer ${scene.app.appKey}`)
        .expect(201);
      const browser = new FormBrowser();
      const page = await browser.get(setup.body.setupUrl as string);
      const newPassword = 'another long and unusual passphrase';
      expect((await browser.submit(page, { password: newPassword, confirm: newPassword })).status).toBe(200);
      expect(await entries({ target: grantId, action: 'tokens.revoke' })).toEqual([
        expect.objectContaining({
          actorKind: 'human',
          actorId: someone.uid,
          detail: { path: 'password_change', clientId, accountId: someone.uid, grantEnded: true },
        }),
      ]);
    } finally {
      person = before;
    }
  });

  it('ends the grants of a person who is deleted, each recorded as the deleting key’s doing', async () => {
    const someone = await createUserWithPassword(scene.identity, scene.app, PASSWORD);
    const before = person;
    person = someone;
    try {
      const clientId = await registeredAgent();
      const { config, tokens } = await agentTokens(clientId);
      const grantId = decodeJwt(tokens.access_token)['gid'] as string;
      await request(scene.identity.server)
        .delete(`/v1/users/${someone.mirrorId}`)
        .set('Authorization', `Bearer ${scene.app.appKey}`)
        .expect(204);
      const [deleted] = await entries({ target: someone.mirrorId, action: 'users.delete' });
      expect(deleted?.detail['unifiedUserDeleted']).toBe(true);
      expect(await entries({ target: grantId, action: 'tokens.revoke' })).toEqual([
        expect.objectContaining({
          actorKind: 'app_key',
          actorId: deleted!.actorId,
          detail: { path: 'person_deleted', clientId, accountId: someone.uid, grantEnded: true },
        }),
      ]);
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP_RESOURCE })).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      person = before;
    }
  });
});
