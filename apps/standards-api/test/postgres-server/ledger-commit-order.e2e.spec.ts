// Needs a PostgreSQL server: a second connection holds an organization's ledger lock while a posting waits for it.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { LEDGER_LOCK } from '../../src/settlements/settlements.repository';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;
const approver = credentialHeaders(`approver-of:${ORG}`, ORG);

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

async function challenge(projectId: string, periodId: string) {
  const body = { periodId, periodEnd: new Date().toISOString(), revenue: '100.00', costs: '0' };
  const response = await request(running.api.server)
    .post(`/api/v2/split-projects/${projectId}/settlement-runs`)
    .set(approver)
    .send(body)
    .expect(428);
  return { ...body, confirmationToken: response.body.confirmationToken as string };
}

async function untilAPostingWaitsForTheLock(): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const [{ waiting }] = await running.api.dataSource.query(
      `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
    );
    if (waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no posting ever waited for the ledger lock');
}

describe('ledger order is commit order', () => {
  it('makes a posting wait for a concurrent one and post after it, so no commit lands behind a cursor', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const first = await challenge(projectId, '2026-01');
    const firstRun = (
      await request(running.api.server).post(`/api/v2/split-projects/${projectId}/settlement-runs`).set(approver).send(first).expect(201)
    ).body;
    const second = await challenge(projectId, '2026-02');

    // Another posting, mid-transaction: it holds the lock and has chosen a posting time later than the clock's.
    const concurrent = running.api.dataSource.createQueryRunner();
    await concurrent.connect();
    await concurrent.startTransaction();
    await concurrent.query(LEDGER_LOCK, [ORG]);
    const concurrentEntry = randomUUID();
    await concurrent.query(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
       VALUES ($1, $2, 'LEI-ALICE-0002', $3, 'alice', 'EUR', '1.00', now() + interval '1 hour')`,
      [concurrentEntry, ORG, firstRun.id],
    );
    const pending = request(running.api.server)
      .post(`/api/v2/split-projects/${projectId}/settlement-runs`)
      .set(approver)
      .send(second)
      .then((r) => r);
    await untilAPostingWaitsForTheLock();
    await concurrent.commitTransaction();
    await concurrent.release();
    const secondRun = (await pending).body;
    expect((await pending).status).toBe(201);

    const page = await request(running.api.server).get('/api/v2/equity-ledgers/LEI-ALICE-0002').set(approver).expect(200);
    expect(
      page.body.entries.map((e: { id: string; settlementRunId: string }) => (e.id === concurrentEntry ? 'concurrent' : e.settlementRunId)),
    ).toEqual([firstRun.id, 'concurrent', secondRun.id]);
  });
});
