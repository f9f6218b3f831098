// Needs a PostgreSQL server: another connection holds the project's row while two keyed writes wait for it.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;
const sql = (text: string, parameters: unknown[] = []) => running.api.dataSource.query(text, parameters);

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const waitingForLocks = async () =>
  (
    await sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
    )
  )[0].n as number;

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('a keyed write still running when its claim is taken over', () => {
  it('writes once: the first request, whose claim a retry took over, commits nothing, and the key answers what the retry wrote', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const key = `takeover-${randomUUID()}`;
    const path = `/api/v2/split-projects/${projectId}/scenarios`;
    const branch = () =>
      request(running.api.server)
        .post(path)
        .set({ ...credentialHeaders(`member-of:${ORG}`, ORG), 'Idempotency-Key': key })
        .send({ fromScenarioId: scenarioId, name: 'Branched once' })
        .then((answer) => answer);

    // The branch's insert waits for the project's row, held here, after the request has claimed its key.
    const holder = running.api.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let answers: request.Response[];
    try {
      await holder.query('SELECT id FROM split_project WHERE id = $1 FOR UPDATE', [projectId]);
      const first = branch();
      await until(async () => (await waitingForLocks()) >= 1, 'the first request waits for the project');
      // Long enough for the claim to look abandoned, as it does to a retry sent after a client's time-out.
      await sql(`UPDATE idempotency_record SET created_at = now() - interval '10 minutes' WHERE idempotency_key = $1`, [key]);
      const retry = branch();
      await until(async () => (await waitingForLocks()) >= 2, 'the retry waits for the project too');
      await holder.commitTransaction();
      answers = await Promise.all([first, retry]);
    } finally {
      await holder.release();
    }

    const branched = await sql(`SELECT id FROM operating_scenario WHERE project_id = $1 AND name = 'Branched once'`, [projectId]);
    expect(branched).toHaveLength(1);
    expect(answers.map((answer) => answer.status)).toEqual([409, 201]);
    expect(answers[0]!.body.domainCode).toBe('idempotency.in_progress');
    expect(answers[1]!.body.id).toBe(branched[0].id);
    const replayed = await branch();
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body.id).toBe(branched[0].id);
  });
});
