// Needs a PostgreSQL server: other connections hold the project's row and the key's record while a
// keyed write runs, and the server ends the write's session (or its client hangs up).
import { createHash, randomUUID } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { canonicalJson } from '@stdreg/split-engine';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;
const sql = (text: string, parameters: unknown[] = []) => running.api.dataSource.query(text, parameters);
const keyed = (key: string) => ({ ...credentialHeaders(`approver-of:${ORG}`, ORG), 'Idempotency-Key': key });
const versionsOf = async (projectId: string) =>
  (await sql('SELECT count(*)::int AS n FROM rule_version WHERE project_id = $1', [projectId]))[0].n as number;
const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString();

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('a keyed write cut short', () => {
  it('is done once: the retry with its key writes again only if the first did not commit', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const key = `cut-${randomUUID()}`;
    const body = { scenarioId, effectiveFrom: inDays(3) };
    const path = `/api/v2/split-projects/${projectId}/rule-versions`;

    // The write waits for the project's row; meanwhile another connection holds the key's record,
    // so whatever the request does to that record next waits too, and its session is ended there.
    const project = running.api.dataSource.createQueryRunner();
    await project.connect();
    await project.startTransaction();
    await project.query('SELECT id FROM split_project WHERE id = $1 FOR UPDATE', [projectId]);
    const pending = request(running.api.server)
      .post(path)
      .set(keyed(key))
      .send(body)
      .then((r) => r);
    await until(
      async () => ((await sql('SELECT 1 FROM idempotency_record WHERE idempotency_key = $1', [key])).length ? true : undefined),
      'the claim',
    );
    const record = running.api.dataSource.createQueryRunner();
    await record.connect();
    await record.startTransaction();
    await record.query('SELECT 1 FROM idempotency_record WHERE idempotency_key = $1 FOR UPDATE', [key]);
    await project.commitTransaction();
    await project.release();
    const [{ ended }] = await until(async () => {
      const rows = await sql(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE idempotency_record%' AND pid <> pg_backend_pid()`,
      );
      return rows.length ? rows : undefined;
    }, 'a request waiting on the key');
    expect(ended).toBe(true);
    await record.rollbackTransaction();
    await record.release();
    expect((await pending).status).toBe(503);

    const retry = await request(running.api.server).post(path).set(keyed(key)).send(body);
    expect([201, 409]).toContain(retry.status);
    // Its write committed and its answer was not stored: within the takeover time that is a request still storing it.
    if (retry.status === 409) expect(retry.body.domainCode).toBe('idempotency.in_progress');
    expect(await versionsOf(projectId)).toBe(2);
  });

  it('answers 409 answer_lost to a retry of a claim whose write committed without its answer, also after the takeover time', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const key = `lost-${randomUUID()}`;
    const body = { scenarioId, effectiveFrom: inDays(5) };
    const path = `/api/v2/split-projects/${projectId}/rule-versions`;
    // As a request leaves it when the process dies between its COMMIT and storing its answer.
    await sql(
      `INSERT INTO idempotency_record (scope, idempotency_key, request_hash, performed_at, created_at)
       VALUES ($1, $2, $3, now(), now() - interval '10 minutes')`,
      [`human:approver-${ORG}|${ORG}|${path}`, key, createHash('sha256').update(canonicalJson(body)).digest('hex')],
    );
    const retry = await request(running.api.server).post(path).set(keyed(key)).send(body).expect(409);
    expect(retry.body).toMatchObject({ code: 'conflict', domainCode: 'idempotency.answer_lost' });
    expect(await versionsOf(projectId)).toBe(1);
  });
  it('answers 409 in_progress, not answer_lost, to a retry between the write’s commit and the storing of its answer', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const key = `storing-${randomUUID()}`;
    const body = { scenarioId, effectiveFrom: inDays(6) };
    const path = `/api/v2/split-projects/${projectId}/rule-versions`;
    // As a request leaves it for the moment between its COMMIT and storing its answer.
    await sql(`INSERT INTO idempotency_record (scope, idempotency_key, request_hash, performed_at) VALUES ($1, $2, $3, now())`, [
      `human:approver-${ORG}|${ORG}|${path}`,
      key,
      createHash('sha256').update(canonicalJson(body)).digest('hex'),
    ]);
    const retry = await request(running.api.server).post(path).set(keyed(key)).send(body).expect(409);
    expect(retry.body).toMatchObject({ code: 'conflict', domainCode: 'idempotency.in_progress' });
    expect(await versionsOf(projectId)).toBe(1);
  });

  it('commits whole when its client hangs up while it waits in its transaction, and the retry gets its answer', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const key = `hung-up-${randomUUID()}`;
    const body = JSON.stringify({ scenarioId, effectiveFrom: inDays(7) });
    const path = `/api/v2/split-projects/${projectId}/rule-versions`;
    await new Promise<void>((resolve) => running.api.server.listen(0, '127.0.0.1', resolve));

    const project = running.api.dataSource.createQueryRunner();
    await project.connect();
    await project.startTransaction();
    await project.query('SELECT id FROM split_project WHERE id = $1 FOR UPDATE', [projectId]);
    const client = connect((running.api.server.address() as AddressInfo).port, '127.0.0.1');
    client.on('error', () => undefined);
    const headers = Object.entries({ ...keyed(key), 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    client.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n${body}`);
    await until(async () => {
      const waiting = await sql(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%split_project%' AND pid <> pg_backend_pid()`,
      );
      return waiting.length ? true : undefined;
    }, 'the write waiting for the project in its transaction');
    const closed = new Promise((resolve) => client.once('close', resolve));
    client.destroy();
    await closed;
    await project.commitTransaction();
    await project.release();

    // Until the first request has stored its answer, a retry is told it is still running (409 in_progress).
    const retried = await until(async () => {
      const retry = await request(running.api.server).post(path).set(keyed(key)).set('Content-Type', 'application/json').send(body);
      return retry.status === 409 && retry.body.domainCode === 'idempotency.in_progress' ? undefined : retry;
    }, 'the first answer stored');
    expect({ status: retried.status, body: retried.body }).toMatchObject({ status: 201 });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(await versionsOf(projectId)).toBe(2);
  });
});
