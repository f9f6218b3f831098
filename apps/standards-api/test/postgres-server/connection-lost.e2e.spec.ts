// Needs a PostgreSQL server: a posting waits for the ledger lock while the server ends its session.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { LEDGER_LOCK } from '../../src/settlements/settlements.repository';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;
const approver = { ...credentialHeaders(`approver-of:${ORG}`, ORG), 'Idempotency-Key': `lost-${randomUUID()}` };
const runsOf = async (projectId: string) =>
  (await running.api.dataSource.query('SELECT count(*)::int AS n FROM settlement_run WHERE project_id = $1', [projectId]))[0].n as number;

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('a request whose database session the server ends', () => {
  it('answers 503 service_unavailable with Retry-After, not a 500, and its retry with the same key posts once', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const posting = `/api/v2/split-projects/${projectId}/settlement-runs`;
    const actuals = { periodId: '2026-01', periodEnd: new Date().toISOString(), revenue: '100.00', costs: '0' };
    const challenge = await request(running.api.server).post(posting).set(approver).send(actuals).expect(428);
    const confirmed = { ...actuals, confirmationToken: challenge.body.confirmationToken as string };

    const holder = running.api.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(LEDGER_LOCK, [ORG]);
    const pending = request(running.api.server)
      .post(posting)
      .set(approver)
      .send(confirmed)
      .then((r) => r);
    let ended = 0;
    for (let attempt = 0; attempt < 400 && ended === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const rows = await holder.query(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid <> pg_backend_pid()`,
      );
      ended = rows.filter((row: { ended: boolean }) => row.ended).length;
    }
    expect(ended).toBe(1);
    const lost = await pending;
    await holder.rollbackTransaction();
    await holder.release();

    expect(lost.status).toBe(503);
    expect(lost.headers['retry-after']).toBe('1');
    expect(lost.body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Idempotency-Key') });
    expect(await runsOf(projectId)).toBe(0);
    const retried = await request(running.api.server).post(posting).set(approver).send(confirmed).expect(201);
    const replayed = await request(running.api.server).post(posting).set(approver).send(confirmed).expect(201);
    expect(replayed.body).toEqual(retried.body);
    expect(await runsOf(projectId)).toBe(1);
  });
});
