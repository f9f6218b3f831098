import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

// A rule version numbered while a settlement is posted: whatever their order, the version a posted run applied
// must stay the one in force at its period end. A version must never begin inside a period already settled.
const ORG = randomUUID();
let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(() => running?.close());

const approver = credentialHeaders(`approver-of:${ORG}`, ORG);
const sql = (text: string, parameters: unknown[] = []) => running.api.dataSource.query(text, parameters);
const until = async (condition: () => Promise<boolean>) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
};

it('keeps the version a posted run applied in force at its period end, when a version is numbered meanwhile', async () => {
  const { projectId, scenarioId } = await activatedProject(running.api, ORG);
  // Another replica (here, the test) holds the project's row, as a change of the project would; NO KEY so
  // that the rows referring to the project (the posting's challenge) can still be written.
  const holder = running.api.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query('SELECT id FROM split_project WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
  try {
    const [{ now }] = await sql('SELECT clock_timestamp() AS now');
    const effectiveFrom = new Date(new Date(now).getTime() + 1_000);
    let created: request.Response | undefined;
    const creating = request(running.api.server)
      .post(`/api/v2/split-projects/${projectId}/rule-versions`)
      .set(approver)
      .send({ scenarioId, revision: 1, effectiveFrom: effectiveFrom.toISOString() })
      .then((response) => (created = response));
    await until(
      async () => (await sql('SELECT clock_timestamp() > $1::timestamptz AS past', [new Date(effectiveFrom.getTime() + 200)]))[0].past,
    );

    // A period that ended after the new version's start, and before now.
    const body = {
      periodId: '2026-race',
      revenue: '1000.00',
      costs: '0',
      periodEnd: new Date(effectiveFrom.getTime() + 100).toISOString(),
    };
    const post = (extra: Record<string, unknown> = {}) =>
      request(running.api.server)
        .post(`/api/v2/split-projects/${projectId}/settlement-runs`)
        .set(approver)
        .send({ ...body, ...extra });
    const { confirmationToken } = (await post().expect(428)).body;
    let posted: request.Response | undefined;
    const posting = post({ confirmationToken }).then((response) => (posted = response));
    // The posting either went through or waits for the project's row, beside the numbering.
    await until(
      async () =>
        posted !== undefined ||
        (await sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`))[0]
          .n >= 2,
    );
    await holder.commitTransaction();
    await Promise.all([creating, posting]);
    expect(posted!.status).toBe(201);
    expect([201, 422]).toContain(created!.status);
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction();
    await holder.release();
  }

  const runs: { ruleVersion: number; inForce: number }[] = await sql(
    `SELECT r.rule_version AS "ruleVersion",
       (SELECT max(v.version) FROM rule_version v WHERE v.project_id = r.project_id AND v.effective_from <= r.period_end) AS "inForce"
     FROM settlement_run r WHERE r.project_id = $1`,
    [projectId],
  );
  expect(runs).toHaveLength(1);
  expect(runs[0]!.ruleVersion).toBe(runs[0]!.inForce);
});
