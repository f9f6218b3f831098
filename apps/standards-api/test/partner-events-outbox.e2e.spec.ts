import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { MAX_HANDOVER_EVENTS } from '@stdreg/contracts';
import { EventsRepository } from '../src/events/events.repository';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;

const member = () => credentialHeaders(`member-of:${ORG}`, ORG);
const approver = () => credentialHeaders(`approver-of:${ORG}`, ORG);
const server = () => running.api.server;

interface OutboxRow {
  type: string;
  organizationId: string;
  resource: string;
  actor: { kind: string; id: string };
  version: number;
  data: Record<string, unknown>;
}
const outbox = (projectId: string): Promise<OutboxRow[]> =>
  running.api.dataSource.query(
    `SELECT type, organization_id AS "organizationId", resource, actor, version, data FROM event_outbox
     WHERE resource = $1 ORDER BY seq`,
    [`split-project:${projectId}`],
  );
const outboxSize = async () => (await running.api.dataSource.query('SELECT count(*)::int AS n FROM event_outbox'))[0].n as number;

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(() => running.close());

async function postSettlement(projectId: string, body: Record<string, unknown>) {
  const periodEnd = new Date().toISOString();
  const call = (extra: Record<string, unknown>) =>
    request(server())
      .post(`/api/v2/split-projects/${projectId}/settlement-runs`)
      .set(approver())
      .send({ periodEnd, ...body, ...extra });
  const { confirmationToken } = (await call({}).expect(428)).body;
  const posted = await call({ confirmationToken });
  expect([posted.status, posted.body.detail]).toEqual([201, undefined]);
  return posted.body;
}

describe("standards-api's outbox", () => {
  it('writes each event with its change, beside its write audit entry: project, revision, branch, activation, rule version, posting and correction', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({ periods: [{ periodId: '2026-03', revenue: '5000.00', costs: '100.00' }] })
      .expect(200);
    const branch = await request(server())
      .post(`/api/v2/split-projects/${projectId}/scenarios`)
      .set(member())
      .send({ name: 'Optimistic', fromScenarioId: scenarioId, fromRevision: 1 })
      .expect(201);
    const effectiveFrom = new Date(Date.now() + 86_400_000).toISOString();
    await request(server())
      .post(`/api/v2/split-projects/${projectId}/rule-versions`)
      .set(approver())
      .send({ scenarioId, revision: 2, effectiveFrom })
      .expect(201);
    const first = await postSettlement(projectId, { periodId: '2026-01', revenue: '2000.00', costs: '0' });
    const correction = await postSettlement(projectId, { periodId: '2026-01', revenue: '2500.00', costs: '0', correctsRunId: first.id });

    const rows = await outbox(projectId);
    expect(rows.map((row) => row.type)).toEqual([
      'split_project.created',
      'rule_version.activated',
      'scenario.revised',
      'scenario.branched',
      'rule_version.created',
      'settlement_run.posted',
      'settlement_run.corrected',
    ]);
    expect(rows.every((row) => row.organizationId === ORG && row.version === 1)).toBe(true);
    const subjects = await running.api.dataSource.query(
      `SELECT subject_kind AS kind, subject_id AS id FROM write_audit WHERE action = 'split-project.create' AND target = $1`,
      [projectId],
    );
    expect(rows[0]!.actor).toEqual({ kind: subjects[0].kind === 'human' ? 'person' : 'key', id: subjects[0].id });
    expect(rows[1]).toMatchObject({ actor: { kind: 'person' }, data: { projectId, version: 1, scenarioId, scenarioRevision: 1 } });
    expect(rows[2]!.data).toEqual({ projectId, scenarioId, revision: 2 });
    expect(rows[3]!.data).toEqual({ projectId, scenarioId: branch.body.id, fromScenarioId: scenarioId, fromRevision: 1 });
    expect(rows[4]!.data).toMatchObject({ projectId, version: 2, scenarioRevision: 2, effectiveFrom });
    expect(rows[5]!.data).toMatchObject({ projectId, settlementRunId: first.id, periodId: '2026-01', currency: 'EUR', ruleVersion: 1 });
    const { body: document } = await request(server()).get('/api/v2/openapi.json').expect(200);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
    for (const row of rows) {
      const schema = document.webhooks[row.type].post.requestBody.content['application/json'].schema.properties.data;
      expect([row.type, ajv.validate(schema, row.data) ? 'matches' : ajv.errorsText()]).toEqual([row.type, 'matches']);
    }
    expect(rows[6]!.data).toMatchObject({
      settlementRunId: correction.id,
      correctsRunId: first.id,
      distributableAmount: correction.distributable,
    });
    // Each of these writes is in the write audit too, under its own action.
    const audited = await running.api.dataSource.query(
      `SELECT action, target FROM write_audit WHERE organization_id = $1 AND target = ANY($2::text[]) ORDER BY at, id`,
      [ORG, [projectId, scenarioId, branch.body.id, first.id, correction.id]],
    );
    expect(audited).toEqual([
      { action: 'split-project.create', target: projectId },
      { action: 'split-project.activate', target: projectId },
      { action: 'operating-scenario.revise', target: scenarioId },
      { action: 'operating-scenario.branch', target: branch.body.id },
      { action: 'rule-version.create', target: projectId },
      { action: 'settlement-run.post', target: first.id },
      { action: 'settlement-run.post', target: correction.id },
    ]);
  });

  it('writes nothing for a refused (unauthorised) write or a rolled-back one', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const before = await outboxSize();
    // Denied by identity: a member may not create rule versions.
    await request(server())
      .post(`/api/v2/split-projects/${projectId}/rule-versions`)
      .set(member())
      .send({ scenarioId, effectiveFrom: new Date(Date.now() + 86_400_000).toISOString() })
      .expect(403);
    // Another organization's credential.
    const stranger = randomUUID();
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(credentialHeaders(`member-of:${stranger}`, stranger))
      .send({ name: 'Taken over' })
      .expect(404);
    // Inside the transaction, under the scenario's lock: the patched content breaks a split rule, and all of it rolls back.
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({ content: { currency: 'USD' } })
      .expect(422);
    // A stale If-Match, refused after the lock was taken.
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .set('If-Match', `"${scenarioId}.9"`)
      .send({ name: 'x' })
      .expect(412);
    expect(await outboxSize()).toBe(before);
  });

  it('hands the outbox over oldest first, also where its seqs gain a digit (99 before 100)', async () => {
    const events = running.api.app.get(EventsRepository);
    const [{ last }] = await running.api.dataSource.query('SELECT coalesce(max(seq), 0)::int AS last FROM event_outbox');
    await running.api.dataSource.transaction(async (manager) => {
      for (let seq = last + 1; seq <= Math.max(last + 1, 100); seq++) {
        await events.insert(manager, {
          id: randomUUID(),
          type: 'split_project.created',
          organizationId: ORG,
          resource: 'split-project:order',
          actor: { kind: 'system', id: 'test' },
          version: 1,
          data: { seq },
          occurredAt: new Date().toISOString(),
        });
      }
    });
    const waiting = (await events.waiting(MAX_HANDOVER_EVENTS)).map((event) => Number(event.seq));
    expect(waiting).toContain(99);
    expect(waiting).toEqual([...waiting].sort((a, b) => a - b));
  });
});
