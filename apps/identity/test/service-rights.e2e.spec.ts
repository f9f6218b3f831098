import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { loadConfig } from '@stdreg/server-kit';
import { IdentityConfig } from '../src/platform/config/identity.config';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// Each service credential holds only the rights SERVICE_RIGHTS gives it: standards-api hands events over, the
// gateway exchanges agents' tokens, both ask for decisions. A credential used for another service's route is
// refused before the route runs, so a compromised gateway cannot send partners events signed by identity.

const STANDARDS_API = randomBytes(24).toString('base64url');
const GATEWAY = randomBytes(24).toString('base64url');
const TOKENS = `standards-api:${STANDARDS_API},mcp-gateway:${GATEWAY}`;

let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity({
    DECISION_SERVICE_TOKENS: TOKENS,
    SERVICE_RIGHTS: 'standards-api=decisions+event-handover,mcp-gateway=decisions+token-exchange',
  });
});
afterAll(() => identity.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const oneEvent = (organizationId: string) => ({
  events: [
    {
      id: randomUUID(),
      type: 'split_project.created',
      organizationId,
      resource: `split-project:${randomUUID()}`,
      actor: { kind: 'key', id: 'key-1' },
      version: 1,
      data: {},
      occurredAt: new Date().toISOString(),
    },
  ],
});

it('refuses the gateway’s credential an event handover, and records nothing; standards-api’s hands over', async () => {
  const { organizationId } = await identity.newAppKey();
  const countEvents = async () =>
    (await identity.dataSource.query('SELECT count(*)::int AS n FROM event_outbox WHERE organization_id = $1', [organizationId]))[0].n;

  const refused = await request(identity.server)
    .post('/v1/events/handover')
    .set(bearer(GATEWAY))
    .send(oneEvent(organizationId))
    .expect(403);
  expect(refused.body).toMatchObject({ code: 'forbidden', domainCode: 'decisions.service_right_missing' });
  expect(refused.body.detail).toContain('"mcp-gateway"');
  expect(await countEvents()).toBe(0);

  await request(identity.server).post('/v1/events/handover').set(bearer(STANDARDS_API)).send(oneEvent(organizationId)).expect(200);
  expect(await countEvents()).toBe(1);
});

it('refuses standards-api’s credential a token exchange; the gateway’s reaches it', async () => {
  const refused = await request(identity.server).post('/v1/token-exchange').set(bearer(STANDARDS_API)).send({}).expect(403);
  expect(refused.body.domainCode).toBe('decisions.service_right_missing');
  const reached = await request(identity.server).post('/v1/token-exchange').set(bearer(GATEWAY)).send({});
  expect(reached.status).toBe(400);
});

it('lets both ask for decisions and answer the subject-change feed', async () => {
  for (const token of [STANDARDS_API, GATEWAY]) {
    const asked = await request(identity.server).post('/v1/decisions').set(bearer(token)).send({});
    expect(asked.status).toBe(400);
    const applied = await request(identity.server).post('/v1/subject-changes/applied').set(bearer(token)).send({});
    expect(applied.status).toBe(400);
  }
});

it('refuses at start rights for a service no credential names, a right there is not, or one service twice', () => {
  const load = (rights: string) => () => loadConfig(IdentityConfig, { DECISION_SERVICE_TOKENS: TOKENS, SERVICE_RIGHTS: rights });
  expect(load('standards-api=decisions,billing=decisions')).toThrow(
    /SERVICE_RIGHTS.*names billing, which DECISION_SERVICE_TOKENS does not/,
  );
  expect(load('standards-api=decisions+payments')).toThrow(/SERVICE_RIGHTS/);
  expect(load('standards-api=decisions,standards-api=event-handover')).toThrow(/SERVICE_RIGHTS.*names standards-api more than once/);
  expect(load('standards-api=decisions+event-handover,mcp-gateway=token-exchange')().serviceRights).toEqual(
    new Map([
      ['standards-api', new Set(['decisions', 'event-handover'])],
      ['mcp-gateway', new Set(['token-exchange'])],
    ]),
  );
});

it('takes a service credential whatever the case of its bearer scheme', async () => {
  await request(identity.server).post('/v1/token-exchange').set('Authorization', `bearer ${STANDARDS_API}`).send({}).expect(403);
  await request(identity.server).post('/v1/token-exchange').set('Authorization', `bEaReR ${GATEWAY}`).send({}).expect(400);
});
