// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the plan is PostgreSQL's.
import { randomUUID } from 'node:crypto';
import { startIdentity, type RunningIdentity } from '../support/identity-app';

let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity();
}, 120_000);
afterAll(() => identity.close());

/** The access paths of a plan, from EXPLAIN (FORMAT JSON). */
function scansOf(plan: Record<string, unknown>): string[] {
  const here = typeof plan['Index Name'] === 'string' ? [`${plan['Node Type']} ${plan['Index Name']}`] : [];
  if (plan['Node Type'] === 'Seq Scan') here.push(`Seq Scan ${plan['Relation Name']}`);
  const children = (plan['Plans'] as Record<string, unknown>[] | undefined) ?? [];
  return [...here, ...children.flatMap(scansOf)];
}

it('finds a person’s grants and sessions, when a new password ends their sign-ins, by the account index, not by reading every one', async () => {
  const people = Array.from({ length: 500 }, () => randomUUID());
  await identity.dataSource.query(
    `INSERT INTO oidc_model (model, id, payload)
     SELECT m, md5(random()::text) || g, jsonb_build_object('accountId', ($1::text[])[1 + g % 500])
       FROM generate_series(1, 20000) AS g, unnest(ARRAY['Grant', 'Session']) AS m`,
    [people],
  );
  await identity.dataSource.query('ANALYZE oidc_model');
  for (const model of ['Grant', 'Session']) {
    const [{ 'QUERY PLAN': plan }] = await identity.dataSource.query(
      `EXPLAIN (FORMAT JSON) DELETE FROM oidc_model WHERE model = $1 AND payload->>'accountId' IN (SELECT unnest($2::text[]))`,
      [model, [people[7]]],
    );
    const scans = scansOf(plan[0]['Plan']);
    expect({ model, scans }).toEqual({ model, scans: expect.arrayContaining([expect.stringMatching(/oidc_model_account$/)]) });
    expect(scans).not.toContain('Seq Scan oidc_model');
  }
});
