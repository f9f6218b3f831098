import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { sampleScenario } from '../support/sample-scenario';
import { credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

// A discard and an activation of one draft, each waiting for the other's lock: only the first to take the project's
// row happens; the second finds the project discarded (404) or activated (409). Never both.
const ORG = randomUUID();
let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(() => running?.close());

const member = credentialHeaders(`member-of:${ORG}`, ORG);
const approver = credentialHeaders(`approver-of:${ORG}`, ORG);
const sql = (text: string, parameters: unknown[] = []) => running.api.dataSource.query(text, parameters);
const waitingForLocks = async (): Promise<number> =>
  (
    await sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%split_project%' AND pid <> pg_backend_pid()`,
    )
  )[0].n;
const until = async (condition: () => Promise<boolean>) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
};

async function draftWithChallenge(): Promise<{ projectId: string; scenarioId: string; confirmationToken: string }> {
  const created = (
    await request(running.api.server)
      .post('/api/v2/split-projects')
      .set(member)
      .send({ name: 'Raced', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201)
  ).body;
  const projectId: string = created.project.id;
  const scenarioId: string = created.scenario.id;
  const { confirmationToken } = (
    await request(running.api.server).post(`/api/v2/split-projects/${projectId}/activate`).set(approver).send({ scenarioId }).expect(428)
  ).body;
  return { projectId, scenarioId, confirmationToken };
}

/** Holds the project's row while `first`, then `second`, queue for it; lets them go in that order. */
async function inOrder(projectId: string, first: () => request.Test, second: () => request.Test) {
  const holder = running.api.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query('SELECT id FROM split_project WHERE id = $1 FOR UPDATE', [projectId]);
  try {
    // then() sends a supertest request; until then it is only built.
    const firstAnswer = first().then((answer) => answer);
    await until(async () => (await waitingForLocks()) >= 1);
    const secondAnswer = second().then((answer) => answer);
    await until(async () => (await waitingForLocks()) >= 2);
    await holder.commitTransaction();
    return await Promise.all([firstAnswer, secondAnswer]);
  } finally {
    if (holder.isTransactionActive) await holder.rollbackTransaction();
    await holder.release();
  }
}

const state = async (projectId: string) =>
  (
    await sql(
      `SELECT discarded_at IS NOT NULL AS discarded, EXISTS (SELECT 1 FROM rule_version WHERE project_id = $1) AS activated
         FROM split_project WHERE id = $1`,
      [projectId],
    )
  )[0];

it('refuses the activation of a draft discarded while it waited for the project', async () => {
  const { projectId, scenarioId, confirmationToken } = await draftWithChallenge();
  const [discarded, activated] = await inOrder(
    projectId,
    () => request(running.api.server).delete(`/api/v2/split-projects/${projectId}`).set(member),
    () =>
      request(running.api.server)
        .post(`/api/v2/split-projects/${projectId}/activate`)
        .set(approver)
        .send({ scenarioId, confirmationToken }),
  );
  expect(discarded.status).toBe(200);
  expect(activated.status).toBe(404);
  expect(activated.body.domainCode).toBe('split_projects.not_found');
  expect(await state(projectId)).toEqual({ discarded: true, activated: false });
});

it('refuses the discard of a draft activated while it waited for the project', async () => {
  const { projectId, scenarioId, confirmationToken } = await draftWithChallenge();
  const [activated, discarded] = await inOrder(
    projectId,
    () =>
      request(running.api.server)
        .post(`/api/v2/split-projects/${projectId}/activate`)
        .set(approver)
        .send({ scenarioId, confirmationToken }),
    () => request(running.api.server).delete(`/api/v2/split-projects/${projectId}`).set(member),
  );
  expect(activated.status).toBe(201);
  expect(discarded.status).toBe(409);
  expect(discarded.body.domainCode).toBe('split_projects.not_a_draft');
  expect(await state(projectId)).toEqual({ discarded: false, activated: true });
});

it('refuses a revision of a draft discarded while it waited for the project', async () => {
  const { projectId, scenarioId } = await draftWithChallenge();
  const revise = () =>
    request(running.api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member)
      .send({ periods: [{ periodId: '2026-01', revenue: '5000.00', costs: '100.00' }] });
  const [discarded, revised] = await inOrder(
    projectId,
    () => request(running.api.server).delete(`/api/v2/split-projects/${projectId}`).set(member),
    revise,
  );
  expect(discarded.status).toBe(200);
  expect(revised.status).toBe(404);
  expect(await sql('SELECT count(*)::int AS n FROM scenario_revision WHERE scenario_id = $1', [scenarioId])).toEqual([{ n: 1 }]);
});
