import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { credentialDigest, DECISION_SIGNATURE_HEADER, decisionSignatureMatches } from '@stdreg/contracts';
import { startIdentity, SERVICE_TOKEN, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const decide = (body: unknown, token = SERVICE_TOKEN) =>
  request(identity.server)
    .post('/v1/decisions')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);

/** A second service asking for decisions, whose refusals are counted apart from the first's. */
const GATEWAY_TOKEN = `test-${randomBytes(24).toString('base64url')}`;
/** A third, whose refusals no other test counts. */
const PROBE_TOKEN = `test-${randomBytes(24).toString('base64url')}`;

beforeAll(async () => {
  identity = await startIdentity({
    DECISION_SERVICE_TOKENS: `standards-api:${SERVICE_TOKEN},mcp-gateway:${GATEWAY_TOKEN},probe:${PROBE_TOKEN}`,
  });
});
afterAll(() => identity.close());

describe('POST /v1/decisions', () => {
  it('refuses callers without the service credential', async () => {
    const body = { credential: { kind: 'api_key', value: identity.platformKey }, action: 'split-project:read', resource: {} };
    const missing = await request(identity.server).post('/v1/decisions').send(body).expect(401);
    expect(missing.body.code).toBe('unauthenticated');
    await decide(body, 'wrong-token-wrong-token-wrong-token-x').expect(401);
    await decide(body, identity.platformKey).expect(401);
  });

  it('allows an app key to draft in its own organization, naming the subject', async () => {
    const partner = await identity.newAppKey();
    const { body } = await decide({
      credential: { kind: 'api_key', value: partner.secret },
      action: 'split-project:draft',
      resource: { organizationId: partner.organizationId, projectId: 'p-1' },
    }).expect(200);
    expect(body).toMatchObject({
      decision: 'allow',
      reason: 'organization_key',
      subject: { kind: 'app_key', id: partner.key.id, keyPrefix: partner.key.prefix, organizationId: partner.organizationId },
    });
  });

  it('echoes the question it decided, with the nonce, and signs the exact answer with the asking service’s credential', async () => {
    const partner = await identity.newAppKey();
    const credential = { kind: 'api_key', value: partner.secret } as const;
    const nonce = 'a-nonce-of-this-question-0001';
    const response = await decide({
      credential,
      action: 'split-project:draft',
      resource: { organizationId: partner.organizationId, projectId: 'p-1' },
      nonce,
    }).expect(200);
    expect(response.body.question).toEqual({
      action: 'split-project:draft',
      resource: { organizationId: partner.organizationId, projectId: 'p-1' },
      credentialDigest: credentialDigest(credential),
      nonce,
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(decisionSignatureMatches(SERVICE_TOKEN, response.text, response.headers[DECISION_SIGNATURE_HEADER])).toBe(true);
    expect(decisionSignatureMatches('another-service-token-of-32-chars', response.text, response.headers[DECISION_SIGNATURE_HEADER])).toBe(
      false,
    );
    await decide({ credential, action: 'split-project:draft', resource: {}, nonce: 'short' }).expect(400);
  });

  it("denies an app key another organization's resources", async () => {
    const partner = await identity.newAppKey();
    const other = await identity.newAppKey();
    const { body } = await decide({
      credential: { kind: 'api_key', value: partner.secret },
      action: 'split-project:read',
      resource: { organizationId: other.organizationId },
    }).expect(200);
    expect(body).toMatchObject({ decision: 'deny', reason: 'organization_mismatch' });
  });

  it.each(['split-project:activate', 'rule-version:create', 'settlement-run:post'])(
    'denies %s to app and platform keys, and audits the denial',
    async (action) => {
      const partner = await identity.newAppKey();
      for (const key of [partner.secret, identity.platformKey]) {
        const { body } = await decide({
          credential: { kind: 'api_key', value: key },
          action,
          resource: { organizationId: partner.organizationId, projectId: 'p-9' },
        }).expect(200);
        expect(body).toMatchObject({ decision: 'deny', reason: 'human_required' });
      }
      const audited = await identity.dataSource.query(
        `SELECT actor_kind, actor_id, outcome, detail->>'reason' AS reason FROM audit_entry WHERE action = $1 AND target = 'p-9' ORDER BY id`,
        [`decision:${action}`],
      );
      expect(audited).toEqual([
        { actor_kind: 'app_key', actor_id: partner.key.prefix, outcome: 'denied', reason: 'human_required' },
        { actor_kind: 'platform_key', actor_id: identity.platformKey.split('_')[2], outcome: 'denied', reason: 'human_required' },
      ]);
    },
  );

  it('keeps every refusal of a real key on record, and counts made-up credentials in one row a minute', async () => {
    const partner = await identity.newAppKey();
    await request(identity.server)
      .post(`/v1/keys/${partner.key.id}/revoke`)
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .expect(200);
    const resource = { organizationId: partner.organizationId, projectId: `p-${partner.key.prefix}` };
    const action = 'split-project:activate';
    for (let i = 0; i < 3; i++) {
      expect((await decide({ credential: { kind: 'api_key', value: partner.secret }, action, resource }).expect(200)).body).toMatchObject({
        reason: 'invalid_credential',
      });
    }
    for (let i = 0; i < 40; i++) {
      const madeUp = `stdreg_app_${String(i).padStart(10, 'z')}_${'A'.repeat(43)}`;
      expect((await decide({ credential: { kind: 'api_key', value: madeUp }, action, resource }).expect(200)).body).toMatchObject({
        reason: 'invalid_credential',
      });
      await decide({ credential: { kind: 'access_token', value: `eyJhbGciOi.e30.${i}` }, action, resource }).expect(200);
    }
    const audited = await identity.dataSource.query(
      `SELECT actor_kind, actor_id, detail->>'unknownCredentialsRefused' AS counted FROM audit_entry WHERE action = $1 AND target = $2 ORDER BY id`,
      [`decision:${action}`, resource.projectId],
    );
    const known = { actor_kind: 'app_key', actor_id: partner.key.prefix, counted: null };
    expect(audited).toEqual([known, known, known, { actor_kind: 'service', actor_id: expect.any(String), counted: '1' }]);
  });

  it('records a refusal under the key when its prefix is presented with a wrong secret or one rotated out', async () => {
    const partner = await identity.newAppKey();
    await request(identity.server)
      .post(`/v1/keys/${partner.key.id}/rotate`)
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ gracePeriodSeconds: 0 })
      .expect(200);
    const resource = { organizationId: partner.organizationId, projectId: `p-wrong-${partner.key.prefix}` };
    const action = 'settlement-run:post';
    for (const value of [partner.secret, `stdreg_app_${partner.key.prefix}_${'B'.repeat(43)}`]) {
      expect((await decide({ credential: { kind: 'api_key', value }, action, resource }).expect(200)).body).toMatchObject({
        decision: 'deny',
        reason: 'invalid_credential',
      });
    }
    const audited = await identity.dataSource.query(
      `SELECT actor_kind, actor_id FROM audit_entry WHERE action = $1 AND target = $2 ORDER BY id`,
      [`decision:${action}`, resource.projectId],
    );
    const known = { actor_kind: 'app_key', actor_id: partner.key.prefix };
    expect(audited).toEqual([known, known]);
  });

  it("counts each service's refusals of made-up credentials apart: another service's refusal in the same minute is written", async () => {
    const resource = { organizationId: '01900000-0000-7000-8000-0000000000aa', projectId: `p-tally-${randomBytes(4).toString('hex')}` };
    const madeUp = { kind: 'api_key', value: `stdreg_app_${'y'.repeat(10)}_${'C'.repeat(43)}` };
    const body = { credential: madeUp, action: 'rule-version:create', resource };
    await decide(body).expect(200);
    await decide(body, GATEWAY_TOKEN).expect(200);
    const audited = await identity.dataSource.query(
      `SELECT actor_id, detail->>'unknownCredentialsRefused' AS counted FROM audit_entry WHERE action = $1 AND target = $2 AND actor_kind = 'service'`,
      ['decision:rule-version:create', resource.projectId],
    );
    expect(audited).toContainEqual({ actor_id: 'mcp-gateway', counted: '1' });
  });

  it('carries the count of a row that could not be written into the next refusal, written at once', async () => {
    const resource = { organizationId: '01900000-0000-7000-8000-0000000000ab', projectId: `p-unwritten-${randomBytes(4).toString('hex')}` };
    const body = {
      credential: { kind: 'api_key', value: `stdreg_app_${'x'.repeat(10)}_${'D'.repeat(43)}` },
      action: 'settlement-run:post',
      resource,
    };
    await identity.dataSource.query(
      `CREATE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END $$`,
    );
    await identity.dataSource.query(
      `CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_entry FOR EACH ROW WHEN (NEW.target = '${resource.projectId}')
         EXECUTE FUNCTION test_refuse_audit()`,
    );
    try {
      await decide(body, PROBE_TOKEN).expect(500);
    } finally {
      await identity.dataSource.query('DROP TRIGGER test_refuse_audit ON audit_entry');
      await identity.dataSource.query('DROP FUNCTION test_refuse_audit');
    }
    await decide(body, PROBE_TOKEN).expect(200);
    const audited = await identity.dataSource.query(
      `SELECT detail->>'unknownCredentialsRefused' AS counted FROM audit_entry WHERE action = $1 AND target = $2 AND actor_id = 'probe'`,
      ['decision:settlement-run:post', resource.projectId],
    );
    expect(audited).toEqual([{ counted: '2' }]);
  });

  it('records a formal decision on an organization without a project under the organization', async () => {
    const partner = await identity.newAppKey();
    await decide({
      credential: { kind: 'api_key', value: partner.secret },
      action: 'split-project:activate',
      resource: { organizationId: partner.organizationId },
    }).expect(200);
    const audited = await identity.dataSource.query(`SELECT target FROM audit_entry WHERE action = $1 AND actor_id = $2`, [
      'decision:split-project:activate',
      partner.key.prefix,
    ]);
    expect(audited).toEqual([{ target: partner.organizationId }]);
  });

  it('denies unknown actions, invalid keys, revoked keys and malformed access tokens', async () => {
    const partner = await identity.newAppKey();
    const resource = { organizationId: partner.organizationId };
    expect(
      (await decide({ credential: { kind: 'api_key', value: partner.secret }, action: 'split-project:destroy', resource }).expect(200))
        .body,
    ).toMatchObject({ decision: 'deny', reason: 'unknown_action', subject: expect.objectContaining({ kind: 'app_key' }) });
    expect(
      (
        await decide({
          credential: { kind: 'api_key', value: 'stdreg_app_aaaaaaaaaa_' + 'A'.repeat(43) },
          action: 'split-project:read',
          resource,
        }).expect(200)
      ).body,
    ).toMatchObject({ decision: 'deny', reason: 'invalid_credential', subject: null });
    expect(
      (
        await decide({ credential: { kind: 'access_token', value: 'eyJhbGciOi.e30.sig' }, action: 'split-project:read', resource }).expect(
          200,
        )
      ).body,
    ).toMatchObject({ decision: 'deny', reason: 'invalid_credential', subject: null });
    await request(identity.server)
      .post(`/v1/keys/${partner.key.id}/revoke`)
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .expect(200);
    expect(
      (await decide({ credential: { kind: 'api_key', value: partner.secret }, action: 'split-project:read', resource }).expect(200)).body,
    ).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
  });

  it('validates the request body', async () => {
    const bad = await decide({ credential: { kind: 'password', value: 'x' }, action: 'split-project:read', resource: {}, extra: 1 }).expect(
      400,
    );
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['credential.kind', 'extra']);
    await decide({
      credential: { kind: 'api_key', value: 'k' },
      action: 'split-project:read',
      resource: { organizationId: 'not-a-uuid' },
    }).expect(400);
  });
});

describe('a key held on a lease', () => {
  let leased: RunningIdentity;
  beforeAll(async () => {
    // The longest lease: the decisions after the first on the key are answered from it, not from the database.
    leased = await startIdentity({ KEY_LEASE_MS: '5000' });
  });
  afterAll(() => leased.close());

  it("still checks the secret presented: another secret under the key's prefix is denied", async () => {
    const partner = await leased.newAppKey();
    const ask = (value: string) =>
      request(leased.server)
        .post('/v1/decisions')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({
          credential: { kind: 'api_key', value },
          action: 'split-project:read',
          resource: { organizationId: partner.organizationId },
        })
        .expect(200);
    expect((await ask(partner.secret)).body).toMatchObject({ decision: 'allow', subject: { kind: 'app_key', id: partner.key.id } });
    const otherSecret = `stdreg_app_${partner.key.prefix}_${'A'.repeat(43)}`;
    expect((await ask(otherSecret)).body).toMatchObject({ decision: 'deny', reason: 'invalid_credential', subject: null });
    expect((await ask(partner.secret)).body.decision).toBe('allow');
  });
});
