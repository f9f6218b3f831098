import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { compareScenarios, MAX_SETTLEMENT_PAYMENTS, type ScenarioContent, validateScenario } from '@stdreg/split-engine';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;

const as = (org: string) => ({ Authorization: `Bearer member-of:${org}`, 'X-Organization-Id': org });
const compare = (projectId: string, scenarios: unknown[], org = ORG_A) =>
  request(api.server).post(`/api/v2/split-projects/${projectId}/scenario-comparisons`).set(as(org)).send({ scenarios });

/** Rows of every table of the service, settlement tables included. */
async function everyTableCount(): Promise<Record<string, number>> {
  const tables: { table_name: string }[] = await api.dataSource.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables)
    counts[table_name] = (await api.dataSource.query(`SELECT count(*)::int AS n FROM "${table_name}"`))[0].n;
  return counts;
}

/** The engine's comparison as JSON carries it: every bigint as a decimal string. */
function engineComparison(scenarios: { label: string; content: unknown }[]) {
  const comparison = compareScenarios(scenarios.map(({ label, content }) => ({ label, scenario: content as ScenarioContent })));
  return JSON.parse(JSON.stringify(comparison, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
}

async function createProject(org = ORG_A) {
  const body = {
    name: 'Studio revenue share',
    currency: 'EUR',
    templateVersion: '2.0',
    scenario: { name: 'Baseline', content: sampleScenario() },
  };
  return (await request(api.server).post('/api/v2/split-projects').set(as(org)).send(body).expect(201)).body as {
    project: { id: string };
    scenario: { id: string };
  };
}

/** A project whose baseline has revisions 1 and 2, and a branch "Optimistic" (from revision 1) with other shares. */
async function projectWithVariants() {
  const { project, scenario } = await createProject();
  await request(api.server)
    .patch(`/api/v2/operating-scenarios/${scenario.id}`)
    .set(as(ORG_A))
    .send({ periods: [{ periodId: '2026-01', revenue: '8000.00', costs: '333.33' }] })
    .expect(200);
  const branch = await request(api.server)
    .post(`/api/v2/split-projects/${project.id}/scenarios`)
    .set(as(ORG_A))
    .send({ fromScenarioId: scenario.id, fromRevision: 1, name: 'Optimistic' })
    .expect(201);
  const tiers = sampleScenario()['tiers'] as Record<string, unknown>[];
  const shares = [
    { participantId: 'alice', basisPoints: 3333 },
    { participantId: 'bob', basisPoints: 6667 },
  ];
  await request(api.server)
    .patch(`/api/v2/operating-scenarios/${branch.body.id}`)
    .set(as(ORG_A))
    .send({ tiers: [tiers[0], { ...tiers[1], shares }], periods: [{ periodId: '2026-01', revenue: '15000.01', costs: '0' }] })
    .expect(200);
  return { projectId: project.id, baselineId: scenario.id as string, branchId: branch.body.id as string };
}

async function contentAt(scenarioId: string, revision: number) {
  return (await request(api.server).get(`/api/v2/operating-scenarios/${scenarioId}?revision=${revision}`).set(as(ORG_A)).expect(200)).body
    .content as unknown;
}

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_TIMEOUT_MS: '300',
    AUTHZ_READ_CACHE_MS: '0',
  });
});
afterAll(async () => {
  await api.close();
  await identity.stop();
});
beforeEach(() => {
  identity.mode = 'decide';
});

describe('comparing scenarios', () => {
  it("answers the split engine's own comparison for the same contents, side by side with differences against the first", async () => {
    const { projectId, baselineId, branchId } = await projectWithVariants();
    const response = await compare(projectId, [
      { scenarioId: baselineId, revision: 1 },
      { scenarioId: baselineId },
      { scenarioId: branchId, revision: 2 },
    ]).expect(200);
    const expected = engineComparison([
      { label: 'Baseline r1', content: await contentAt(baselineId, 1) },
      { label: 'Baseline r2', content: await contentAt(baselineId, 2) },
      { label: 'Optimistic r2', content: await contentAt(branchId, 2) },
    ]);
    const refs = [
      { scenarioId: baselineId, revision: 1 },
      { scenarioId: baselineId, revision: 2 },
      { scenarioId: branchId, revision: 2 },
    ];
    expect(response.body).toEqual({
      projectId,
      currency: 'EUR',
      scenarios: expected.scenarios.map((scenario: object, index: number) => ({
        ...refs[index],
        ...scenario,
        rulesDigest: expect.stringMatching(/^sha256:/),
      })),
      participants: expected.participants.map((participant: { participantId: string; columns: object[] }) => ({
        participantId: participant.participantId,
        columns: participant.columns.map((column, index) => ({ ...refs[index], ...column })),
      })),
    });
    const alice = response.body.participants.find((p: { participantId: string }) => p.participantId === 'alice');
    expect(alice.columns[0]).toMatchObject({ label: 'Baseline r1', difference: { amount: '0.00', minorUnits: '0' } });
    expect(alice.columns[2].total.minorUnits).toBe(String(BigInt(alice.columns[2].total.amount.replace('.', ''))));
  });

  it('gives every amount its exact minor units as a decimal string, beyond 2^53', async () => {
    // 999999999999999999.99 EUR is 99999999999999999999 cents: a floating-point number would round it.
    const { project, scenario } = await createProject();
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .send({ periods: [{ periodId: '2026-01', revenue: '999999999999999999.99', costs: '0.00' }] })
      .expect(200);
    const response = await compare(project.id, [{ scenarioId: scenario.id, revision: 1 }, { scenarioId: scenario.id }]).expect(200);
    expect(response.body.scenarios[1].distributable).toEqual({ amount: '999999999999999999.99', minorUnits: '99999999999999999999' });
    const amounts = [
      ...response.body.scenarios.flatMap((s: { distributable: object; difference: object }) => [s.distributable, s.difference]),
      ...response.body.participants.flatMap((p: { columns: { total: object; difference: object }[] }) =>
        p.columns.flatMap((column) => [column.total, column.difference]),
      ),
    ] as { amount: string; minorUnits: string }[];
    expect(amounts.length).toBeGreaterThan(4);
    for (const { amount, minorUnits } of amounts) expect(minorUnits).toBe(BigInt(amount.replace('.', '')).toString());
  });

  it('stores nothing: every table, settlement tables included, has the same rows afterwards', async () => {
    const { projectId, baselineId, branchId } = await projectWithVariants();
    const before = await everyTableCount();
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['settlement_run', 'equity_ledger_entry', 'scenario_revision', 'write_audit']),
    );
    await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: branchId }]).expect(200);
    expect(await everyTableCount()).toEqual(before);
    expect(identity.questions.at(-1)).toEqual({ action: 'split-project:read', resource: { organizationId: ORG_A, projectId } });
  });

  it("answers 422 for a revision stored before the bound on a settlement's payments that settles more, never 500", async () => {
    const { project, scenario } = await createProject();
    // 120 months, 100 participants and two tiers sharing among all of them: 24 000 payments.
    const participants = Array.from({ length: 100 }, (_, i) => ({
      participantId: `p${i}`,
      name: { en: `Participant ${i}`, 'zh-Hans': `参与者${i}` },
      legalEntityId: `LEI-${i}`,
    }));
    const shareTier = (tierId: string) => ({
      tierId,
      kind: 'percentage',
      label: { en: tierId, 'zh-Hans': tierId },
      shares: participants.map(({ participantId }) => ({ participantId, basisPoints: 100 })),
    });
    const content = {
      currency: 'EUR',
      periods: Array.from({ length: 120 }, (_, month) => ({
        periodId: `${2016 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`,
        revenue: '10000.00',
        costs: '0.00',
      })),
      participants,
      tiers: [shareTier('first'), shareTier('second')],
    };
    expect(validateScenario(content)).toMatchObject({ ok: false, errors: [{ code: 'too_many_items' }] });
    await api.dataSource.query(
      `INSERT INTO scenario_revision (scenario_id, revision, content, rules_digest, created_by) VALUES ($1, 2, $2, 'sha256:old', 'test')`,
      [scenario.id, JSON.stringify(content)],
    );
    const refused = await compare(project.id, [
      { scenarioId: scenario.id, revision: 1 },
      { scenarioId: scenario.id, revision: 2 },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.domainCode).toBe('comparisons.not_comparable');
    expect(refused.body.detail).toContain(`at most ${MAX_SETTLEMENT_PAYMENTS} payments`);
  });

  it('refuses one or five scenarios with 400 naming the scenarios field', async () => {
    const { projectId, baselineId } = await projectWithVariants();
    const one = await compare(projectId, [{ scenarioId: baselineId }]).expect(400);
    expect(one.body.errors).toEqual([{ field: 'scenarios', message: expect.stringContaining('at least 2') }]);
    const five = await compare(
      projectId,
      Array.from({ length: 5 }, () => ({ scenarioId: baselineId })),
    ).expect(400);
    expect(five.body.errors).toEqual([{ field: 'scenarios', message: expect.stringContaining('no more than 4') }]);
  });

  it('refuses malformed entries with 400 naming the entry field', async () => {
    const { projectId, baselineId } = await projectWithVariants();
    const badId = await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: 'nope' }]).expect(400);
    expect(badId.body.errors[0].field).toBe('scenarios[1].scenarioId');
    const badRevision = await compare(projectId, [{ scenarioId: baselineId, revision: 0 }, { scenarioId: baselineId }]).expect(400);
    expect(badRevision.body.errors[0].field).toBe('scenarios[0].revision');
    const extra = await compare(projectId, [{ scenarioId: baselineId, label: 'x' }, { scenarioId: baselineId }]).expect(400);
    expect(extra.body.errors[0].field).toBe('scenarios[0].label');
  });

  it("answers 404 naming the scenario for another project's scenario, another organization's, or a missing revision", async () => {
    const { projectId, baselineId } = await projectWithVariants();
    const other = await createProject(ORG_A);
    const foreignProject = await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: other.scenario.id }]).expect(404);
    expect(foreignProject.body.detail).toContain(other.scenario.id);
    const otherOrg = await createProject(ORG_B);
    const foreignOrg = await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: otherOrg.scenario.id }]).expect(404);
    expect(foreignOrg.body.detail).toContain(otherOrg.scenario.id);
    const missingRevision = await compare(projectId, [{ scenarioId: baselineId, revision: 9 }, { scenarioId: baselineId }]).expect(404);
    expect(missingRevision.body.detail).toContain(baselineId);
  });

  it("answers 404 for another organization's project, and 403 when identity denies", async () => {
    const { projectId, baselineId, branchId } = await projectWithVariants();
    const foreign = await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: branchId }], ORG_B).expect(404);
    // The project is what the other organization cannot see, before any of its scenarios is looked up.
    expect(foreign.body.domainCode).toBe('split_projects.not_found');
    identity.mode = 'deny';
    await compare(projectId, [{ scenarioId: baselineId }, { scenarioId: branchId }]).expect(403);
  });
});
