import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { undoMigrationsThrough } from './support/standards-api-app';

// The release before `WriteAuditRefusals` reads every write_audit entry as a write that was made.
const ORG = randomUUID();
const MIGRATION = 'WriteAuditRefusals1764900000000';
let running: ProtectedApi;

beforeAll(async () => {
  running = await startProtectedApi({ AUTHZ_TIMEOUT_MS: '5000' });
});
afterAll(() => running?.close());

const entriesOf = (target: string) =>
  running.api.dataSource.query(
    `SELECT id, at, organization_id, subject_kind, subject_id, supervisor_id, action, target, detail, request_id
       FROM write_audit WHERE target = $1 ORDER BY id`,
    [target],
  );
const outcomesOf = async (target: string) =>
  (
    (await running.api.dataSource.query(`SELECT outcome FROM write_audit WHERE target = $1 ORDER BY id`, [target])) as {
      outcome: string;
    }[]
  ).map((entry) => entry.outcome);

// Between the undo and the migration again only SQL runs: the code of this release writes the column it adds.
it('moves the refusals aside when undone, so the release before reads none of them as a write, and puts them back when done again', async () => {
  const { projectId, scenarioId } = await activatedProject(running.api, ORG);
  const refused = await request(running.api.server)
    .post(`/api/v2/split-projects/${projectId}/activate`)
    .set(credentialHeaders(`stdreg_misjudged_agent_of:${ORG}`, ORG))
    .send({ scenarioId });
  expect(refused.body.domainCode).toBe('authorization.human_required');
  const entries = await entriesOf(projectId);
  const outcomes = await outcomesOf(projectId);
  expect(outcomes).toContain('denied');
  const writes = entries.filter((_: unknown, index: number) => outcomes[index] === 'success');

  await undoMigrationsThrough(running.api.dataSource, MIGRATION);
  expect(await entriesOf(projectId)).toEqual(writes);

  await running.api.dataSource.runMigrations();
  expect(await entriesOf(projectId)).toEqual(entries);
  expect(await outcomesOf(projectId)).toEqual(outcomes);
  const [aside] = await running.api.dataSource.query(`SELECT to_regclass('write_audit_undone_refusal') AS name`);
  expect(aside.name).toBeNull();
});
