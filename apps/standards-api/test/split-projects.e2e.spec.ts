import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity, UNAVAILABLE_MODES } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;

const as = (org: string) => ({ Authorization: `Bearer member-of:${org}`, 'X-Organization-Id': org });
const newProject = (name = 'Studio revenue share') => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const count = async (table: string) => (await api.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
const counts = async () => ({
  projects: await count('split_project'),
  scenarios: await count('operating_scenario'),
  revisions: await count('scenario_revision'),
  audit: await count('write_audit'),
});

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

async function createProject(org = ORG_A) {
  return (await request(api.server).post('/api/v2/split-projects').set(as(org)).send(newProject()).expect(201)).body;
}

describe('creating a split project', () => {
  it('creates the project and its first operating scenario at revision 1', async () => {
    const before = await counts();
    const body = await createProject();
    expect(body.project).toMatchObject({ organizationId: ORG_A, currency: 'EUR', templateVersion: '2.0', createdBy: `human:uid-${ORG_A}` });
    expect(body.scenario).toMatchObject({
      projectId: body.project.id,
      name: 'Baseline',
      revision: 1,
      currentRevision: 1,
      branchedFrom: null,
      rulesDigest: expect.stringMatching(/^sha256:/),
    });
    expect(await counts()).toEqual({
      projects: before.projects + 1,
      scenarios: before.scenarios + 1,
      revisions: before.revisions + 1,
      audit: before.audit + 1,
    });
    expect(identity.questions.at(-1)).toEqual({ action: 'split-project:draft', resource: { organizationId: ORG_A } });
  });

  it('refuses content that breaks the split rules with located errors, storing nothing', async () => {
    const before = await counts();
    const content = sampleScenario();
    (content['tiers'] as { shares?: { basisPoints: number }[] }[])[1]!.shares![1]!.basisPoints = 3000;
    const response = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), scenario: { name: 'Bad', content } })
      .expect(422);
    expect(response.body.errors[0]).toEqual({
      field: 'scenario.content/tiers/1/shares',
      message: expect.stringMatching(/^shares_not_10000: /),
    });
    expect(await counts()).toEqual(before);
  });

  it('quotes a long refused id shortened at a whole character, never half of one written as two UTF-16 units', async () => {
    const content = sampleScenario();
    const tierId = `${'a'.repeat(39)}\u{1f600}-b`;
    (content['tiers'] as { tierId: string }[])[0]!.tierId = tierId;
    const response = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), scenario: { name: 'Odd id', content } })
      .expect(422);
    expect(response.body.errors[0]).toEqual({
      field: 'scenario.content/tiers/0/tierId',
      message: expect.stringContaining(`found "${'a'.repeat(39)}\u{1f600}…"`),
    });
  });

  it('refuses an unknown template, another currency, and unknown fields', async () => {
    await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), templateVersion: '9.9' })
      .expect(422);
    const currency = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), currency: 'USD' })
      .expect(422);
    expect(currency.body.errors[0].field).toBe('scenario.content/currency');
    const extra = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), owner: 'me' })
      .expect(400);
    expect(extra.body.errors[0].field).toBe('owner');
  });

  it.each([
    ['a blank name', { name: '   ' }, 'name'],
    ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a currency of four letters', { currency: 'EURO' }, 'currency'],
    ['a template version with a tail', { templateVersion: '2.0-beta' }, 'templateVersion'],
    ['a blank scenario name', { scenario: { name: '   ', content: {} } }, 'scenario.name'],
  ])('refuses a project with %s, naming the field, and writes nothing', async (_, change, field) => {
    const before = await counts();
    const response = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as(ORG_A))
      .send({ ...newProject(), ...change })
      .expect(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await counts()).toEqual(before);
  });

  it('stores both the project and its scenario or neither', async () => {
    const before = await counts();
    await api.dataSource.query(
      `CREATE FUNCTION fail_scenario() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'scenario insert failed'; END $$`,
    );
    await api.dataSource.query(
      'CREATE TRIGGER fail_scenario BEFORE INSERT ON operating_scenario FOR EACH ROW EXECUTE FUNCTION fail_scenario()',
    );
    try {
      await request(api.server).post('/api/v2/split-projects').set(as(ORG_A)).send(newProject()).expect(500);
    } finally {
      await api.dataSource.query('DROP TRIGGER fail_scenario ON operating_scenario');
      await api.dataSource.query('DROP FUNCTION fail_scenario()');
    }
    expect(await counts()).toEqual(before);
  });
});

describe('organization scoping', () => {
  it("gives 404 for another organization's projects and scenarios, and lists only one's own", async () => {
    const { project, scenario } = await createProject(ORG_A);
    await request(api.server).get(`/api/v2/split-projects/${project.id}`).set(as(ORG_B)).expect(404);
    await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_B)).expect(404);
    await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}/revisions`).set(as(ORG_B)).expect(404);
    await request(api.server).get(`/api/v2/split-projects/${project.id}/scenarios`).set(as(ORG_B)).expect(404);
    await request(api.server).patch(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_B)).send({ periods: [] }).expect(404);
    await request(api.server)
      .post(`/api/v2/split-projects/${project.id}/scenarios`)
      .set(as(ORG_B))
      .send({ fromScenarioId: scenario.id, name: 'x' })
      .expect(404);
    const listed = await request(api.server).get('/api/v2/split-projects?limit=100').set(as(ORG_B)).expect(200);
    expect(listed.body.items.map((p: { id: string }) => p.id)).not.toContain(project.id);
  });

  it("pages an organization's projects in id order, never showing another's made in between", async () => {
    const [own, other] = [randomUUID(), randomUUID()];
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await createProject(own)).project.id);
      await createProject(other);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await request(api.server)
          .get(`/api/v2/split-projects?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
          .set(as(own))
          .expect(200)
      ).body as { items: { id: string; organizationId: string }[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((project) => project.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].sort());
  });

  it('refuses a credential acting in another organization than its own with 403, before any database work', async () => {
    const response = await request(api.server)
      .get('/api/v2/split-projects')
      .set({ Authorization: `Bearer member-of:${ORG_A}`, 'X-Organization-Id': ORG_B })
      .expect(403);
    expect(response.body).toMatchObject({ code: 'forbidden', detail: 'Not allowed: organization_mismatch.' });
  });

  it('requires a credential and an organization header', async () => {
    const missing = await request(api.server).get('/api/v2/split-projects').set('X-Organization-Id', ORG_A).expect(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="standards-api"');
    const noOrg = await request(api.server).get('/api/v2/split-projects').set('Authorization', `Bearer member-of:${ORG_A}`).expect(400);
    expect(noOrg.body.errors[0].field).toBe('X-Organization-Id');
  });
});

describe('operating scenarios are append-only', () => {
  it('appends revision n+1 from a merge patch and keeps every past revision readable', async () => {
    const { scenario } = await createProject();
    const first = await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_A)).expect(200);
    expect(first.headers['etag']).toBe(`"${scenario.id}.1"`);
    const patch = { periods: [{ periodId: '2026-03', revenue: '5000.00', costs: '100.00' }] };
    const revised = await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .set('Content-Type', 'application/merge-patch+json')
      .set('If-Match', first.headers['etag'] as string)
      .send(JSON.stringify(patch))
      .expect(200);
    expect(revised.body).toMatchObject({ revision: 2, currentRevision: 2, content: { periods: patch.periods } });
    expect(revised.headers['etag']).toBe(`"${scenario.id}.2"`);
    const old = await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}?revision=1`).set(as(ORG_A)).expect(200);
    expect(old.body.content).toEqual(sampleScenario());
    // Not the current revision: no ETag, since "<id>.1" already named revision 1 while it was current.
    expect(old.headers['etag']).toBeUndefined();
    const history = await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}/revisions`).set(as(ORG_A)).expect(200);
    expect(history.body.items.map((r: { revision: number }) => r.revision)).toEqual([1, 2]);
  });

  it('applies each patch to the current revision, and changes the rules digest when the rules change only', async () => {
    const { scenario } = await createProject();
    const patch = (body: Record<string, unknown>) =>
      request(api.server).patch(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_A)).send(body).expect(200);
    const periods = [{ periodId: '2026-03', revenue: '5000.00', costs: '100.00' }];
    const forecast = (await patch({ periods })).body;
    expect(forecast).toMatchObject({ revision: 2, content: { ...sampleScenario(), periods } });
    expect(forecast.rulesDigest).toBe(scenario.rulesDigest);
    // An array in a patch replaces the whole list: the fixed tier is gone, not merged with the new one.
    const tiers = [
      {
        tierId: 'all',
        kind: 'percentage',
        label: { en: 'All', 'zh-Hans': '全部' },
        shares: [{ participantId: 'alice', basisPoints: 10000 }],
      },
    ];
    const rules = (await patch({ tiers })).body;
    expect(rules).toMatchObject({ revision: 3, content: { ...sampleScenario(), periods, tiers } });
    expect(rules.rulesDigest).not.toBe(forecast.rulesDigest);
    const stored = await api.dataSource.query(
      'SELECT revision, rules_digest FROM scenario_revision WHERE scenario_id = $1 ORDER BY revision',
      [scenario.id],
    );
    expect(stored.map((r: { rules_digest: string }) => r.rules_digest)).toEqual([
      scenario.rulesDigest,
      scenario.rulesDigest,
      rules.rulesDigest,
    ]);
  });

  it("refuses a patch that moves the scenario to another currency than the project's, storing nothing", async () => {
    const { scenario } = await createProject();
    const before = await counts();
    const response = await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .send({ currency: 'USD' })
      .expect(422);
    expect(response.body).toMatchObject({ domainCode: 'scenarios.currency_mismatch', errors: [{ field: 'content/currency' }] });
    expect(await counts()).toEqual(before);
  });

  it('pages the revision history oldest first, and refuses a cursor it did not hand out', async () => {
    const { scenario } = await createProject();
    for (const periodId of ['2026-05', '2026-06', '2026-07', '2026-08']) {
      await request(api.server)
        .patch(`/api/v2/operating-scenarios/${scenario.id}`)
        .set(as(ORG_A))
        .send({ periods: [{ periodId, revenue: '10.00', costs: '0' }] })
        .expect(200);
    }
    const history = (query: string) =>
      request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}/revisions${query}`).set(as(ORG_A));
    const revisionsOf = (body: { items: { revision: number }[] }) => body.items.map((r) => r.revision);
    const first = (await history('?limit=2').expect(200)).body;
    expect(revisionsOf(first)).toEqual([1, 2]);
    const second = (await history(`?limit=2&cursor=${first.nextCursor}`).expect(200)).body;
    expect(revisionsOf(second)).toEqual([3, 4]);
    const last = (await history(`?limit=2&cursor=${second.nextCursor}`).expect(200)).body;
    expect(last).toMatchObject({ items: [{ revision: 5, createdBy: expect.any(String) }], nextCursor: null });
    expect(revisionsOf((await history('').expect(200)).body)).toEqual([1, 2, 3, 4, 5]);

    const foreign = Buffer.from(JSON.stringify(['scenarios', '1'])).toString('base64url');
    const forged = Buffer.from(JSON.stringify(['revisions', '1 OR 1=1'])).toString('base64url');
    for (const cursor of [foreign, forged, 'not-a-cursor!']) {
      expect((await history(`?cursor=${encodeURIComponent(cursor)}`).expect(400)).body.errors).toEqual([
        expect.objectContaining({ field: 'cursor' }),
      ]);
    }
    await history('?limit=0').expect(400);
    await history('?limit=101').expect(400);
  });

  it('refuses a stale If-Match with 412 and stores nothing', async () => {
    const { scenario } = await createProject();
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .send({ periods: [{ periodId: '2026-04', revenue: '1.00', costs: '0' }] })
      .expect(200);
    const before = await counts();
    const stale = await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .set('If-Match', `"${scenario.id}.1"`)
      .send({ periods: [{ periodId: '2026-05', revenue: '1.00', costs: '0' }] })
      .expect(412);
    expect(stale.body.code).toBe('precondition_failed');
    // If-Match compares strongly (RFC 9110): the weak form of the current ETag is no match either.
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .set('If-Match', `W/"${scenario.id}.2"`)
      .send({ periods: [{ periodId: '2026-05', revenue: '1.00', costs: '0' }] })
      .expect(412);
    expect(await counts()).toEqual(before);
  });

  it('lets one of racing patches with the same If-Match through and refuses the others with 412; without If-Match numbers them all', async () => {
    // Caught on PostgreSQL only: PGlite runs one transaction at a time, so nothing races there.
    const { scenario } = await createProject();
    const patch = (periodId: string, ifMatch?: string) => {
      const call = request(api.server).patch(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_A));
      return (ifMatch ? call.set('If-Match', ifMatch) : call).send({ periods: [{ periodId, revenue: '1.00', costs: '0' }] });
    };
    const sameEtag = await Promise.all(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05'].map((p) => patch(p, `"${scenario.id}.1"`)));
    expect(sameEtag.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412]);
    const unconditional = await Promise.all(['2026-06', '2026-07', '2026-08', '2026-09', '2026-10'].map((p) => patch(p)));
    expect(unconditional.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(unconditional.map((r) => r.body.revision as number).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7]);
    const stored = await api.dataSource.query('SELECT revision FROM scenario_revision WHERE scenario_id = $1 ORDER BY revision', [
      scenario.id,
    ]);
    expect(stored.map((r: { revision: number }) => r.revision)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses a patch whose result breaks the rules, storing nothing', async () => {
    const { scenario } = await createProject();
    const before = await counts();
    const response = await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .send({ participants: null })
      .expect(422);
    expect(response.body.errors[0].field).toMatch(/^content\//);
    expect(await counts()).toEqual(before);
  });

  it('refuses a body that is not a merge patch object with 400, storing nothing', async () => {
    const { scenario } = await createProject();
    const before = await counts();
    for (const body of ['[]', JSON.stringify([sampleScenario()])]) {
      const response = await request(api.server)
        .patch(`/api/v2/operating-scenarios/${scenario.id}`)
        .set(as(ORG_A))
        .set('Content-Type', 'application/merge-patch+json')
        .send(body)
        .expect(400);
      expect(response.body.domainCode).toBe('scenarios.patch_not_object');
    }
    const noBody = await request(api.server).patch(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_A)).expect(400);
    expect(noBody.body.domainCode).toBe('scenarios.patch_not_object');
    expect(await counts()).toEqual(before);
  });

  it('is append-only in the database itself', async () => {
    const { scenario } = await createProject();
    await expect(
      api.dataSource.query('UPDATE scenario_revision SET content = $1 WHERE scenario_id = $2', ['{}', scenario.id]),
    ).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query('DELETE FROM scenario_revision WHERE scenario_id = $1', [scenario.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(api.dataSource.query('UPDATE write_audit SET action = $1', ['x'])).rejects.toThrow(/append-only/);
  });

  it('refuses a branch from a malformed scenario id or with a name of 201 characters, naming the field, and writes nothing', async () => {
    const { project, scenario } = await createProject();
    const before = await counts();
    for (const [body, field] of [
      [{ fromScenarioId: 'not-a-uuid', name: 'Optimistic' }, 'fromScenarioId'],
      [{ fromScenarioId: scenario.id, name: 'n'.repeat(201) }, 'name'],
    ] as const) {
      const response = await request(api.server)
        .post(`/api/v2/split-projects/${project.id}/scenarios`)
        .set(as(ORG_A))
        .send(body)
        .expect(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(await counts()).toEqual(before);
  });

  it('branches a new scenario from a given scenario and revision, and records both', async () => {
    const { project, scenario } = await createProject();
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenario.id}`)
      .set(as(ORG_A))
      .send({ periods: [{ periodId: '2026-06', revenue: '7.00', costs: '0' }] })
      .expect(200);
    const branch = await request(api.server)
      .post(`/api/v2/split-projects/${project.id}/scenarios`)
      .set(as(ORG_A))
      .send({ fromScenarioId: scenario.id, fromRevision: 1, name: 'Optimistic' })
      .expect(201);
    expect(branch.body).toMatchObject({
      name: 'Optimistic',
      revision: 1,
      branchedFrom: { scenarioId: scenario.id, revision: 1 },
      content: sampleScenario(),
    });
    const listed = await request(api.server).get(`/api/v2/split-projects/${project.id}/scenarios`).set(as(ORG_A)).expect(200);
    expect(listed.body.items.map((s: { id: string; revision: number }) => [s.id, s.revision])).toEqual([
      [scenario.id, 2],
      [branch.body.id, 1],
    ]);
    expect(listed.body.items[0].content.periods).toEqual([{ periodId: '2026-06', revenue: '7.00', costs: '0' }]);
    expect(listed.body.items[1].content).toEqual(sampleScenario());
    const scenarios = (cursor?: string) =>
      request(api.server)
        .get(`/api/v2/split-projects/${project.id}/scenarios?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .set(as(ORG_A))
        .expect(200);
    const firstPage = await scenarios();
    const secondPage = await scenarios(firstPage.body.nextCursor);
    expect([...firstPage.body.items, ...secondPage.body.items].map((s: { id: string }) => s.id)).toEqual([scenario.id, branch.body.id]);
    expect(secondPage.body.nextCursor).toBeNull();
    await request(api.server)
      .post(`/api/v2/split-projects/${project.id}/scenarios`)
      .set(as(ORG_A))
      .send({ fromScenarioId: scenario.id, fromRevision: 9, name: 'x' })
      .expect(404);
  });

  it('refuses to branch from a scenario of another project of the organization with 404, storing nothing', async () => {
    const { project } = await createProject();
    const other = await createProject();
    const before = await counts();
    const response = await request(api.server)
      .post(`/api/v2/split-projects/${project.id}/scenarios`)
      .set(as(ORG_A))
      .send({ fromScenarioId: other.scenario.id, name: 'Copied' })
      .expect(404);
    expect(response.body.domainCode).toBe('scenarios.not_found');
    expect(await counts()).toEqual(before);
  });
});

describe('a patch that changes nothing appends nothing', () => {
  /** What a revision leaves behind: the scenario's revisions, its audit entries and its project's partner events. */
  const traces = async (projectId: string, scenarioId: string) => ({
    revisions: (
      await api.dataSource.query('SELECT revision FROM scenario_revision WHERE scenario_id = $1 ORDER BY revision', [scenarioId])
    ).map((r: { revision: number }) => r.revision),
    audit: (await api.dataSource.query('SELECT action FROM write_audit WHERE target = $1 ORDER BY at, id', [scenarioId])).map(
      (r: { action: string }) => r.action,
    ),
    events: (
      await api.dataSource.query('SELECT type FROM event_outbox WHERE resource = $1 ORDER BY seq', [`split-project:${projectId}`])
    ).map((r: { type: string }) => r.type),
  });
  const patchAs = (scenarioId: string, ifMatch?: string) => {
    const call = request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(as(ORG_A))
      .set('Content-Type', 'application/merge-patch+json');
    return ifMatch ? call.set('If-Match', ifMatch) : call;
  };

  it('answers {} with the current revision and its ETag, and stores no revision, audit entry or event', async () => {
    const { project, scenario } = await createProject();
    const before = await traces(project.id, scenario.id);
    const answer = await patchAs(scenario.id, `"${scenario.id}.1"`).send('{}').expect(200);
    expect(answer.headers['etag']).toBe(`"${scenario.id}.1"`);
    expect(answer.body).toEqual(scenario);
    expect(await traces(project.id, scenario.id)).toEqual(before);
    const history = await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}/revisions`).set(as(ORG_A)).expect(200);
    expect(history.body.items.map((r: { revision: number }) => r.revision)).toEqual([1]);
    const current = await request(api.server).get(`/api/v2/operating-scenarios/${scenario.id}`).set(as(ORG_A)).expect(200);
    expect(current.headers['etag']).toBe(`"${scenario.id}.1"`);
  });

  it('compares the content as it would be stored: the same values, an absent member removed, keys reordered, 6000.0 for 6000', async () => {
    const { project, scenario } = await createProject();
    const before = await traces(project.id, scenario.id);
    const sameTiers =
      '{"tiers":[{"label":{"zh-Hans":"平台费","en":"Platform fee"},"allocations":[{"amount":"500.00","participantId":"platform"}],' +
      '"kind":"fixed","tierId":"platform-fee"},{"tierId":"revenue-share","kind":"percentage","label":{"en":"Revenue share",' +
      '"zh-Hans":"收入分成"},"shares":[{"participantId":"alice","basisPoints":6000.0},{"basisPoints":4.0e3,"participantId":"bob"}]}]}';
    for (const body of [
      JSON.stringify({ currency: 'EUR', periods: sampleScenario()['periods'] }),
      JSON.stringify({ absent: null }),
      sameTiers,
    ]) {
      const answer = await patchAs(scenario.id).send(body).expect(200);
      expect([answer.body.revision, answer.headers['etag']]).toEqual([1, `"${scenario.id}.1"`]);
    }
    expect(await traces(project.id, scenario.id)).toEqual(before);
  });

  it('still appends exactly one revision, audit entry and event for a real change, and nothing for the same change again', async () => {
    const { project, scenario } = await createProject();
    const before = await traces(project.id, scenario.id);
    const change = JSON.stringify({ periods: [{ periodId: '2026-03', revenue: '5000.00', costs: '100.00' }] });
    const changed = await patchAs(scenario.id, `"${scenario.id}.1"`).send(change).expect(200);
    expect([changed.body.revision, changed.headers['etag']]).toEqual([2, `"${scenario.id}.2"`]);
    const after = await traces(project.id, scenario.id);
    expect(after).toEqual({
      revisions: [1, 2],
      audit: [...before.audit, 'operating-scenario.revise'],
      events: [...before.events, 'scenario.revised'],
    });
    const again = await patchAs(scenario.id, `"${scenario.id}.2"`).send(change).expect(200);
    expect(again.body).toEqual(changed.body);
    expect(again.headers['etag']).toBe(`"${scenario.id}.2"`);
    expect(await traces(project.id, scenario.id)).toEqual(after);
  });

  it('checks If-Match first: a no-op under the current ETag keeps it, under a stale one is a 412', async () => {
    const { project, scenario } = await createProject();
    await patchAs(scenario.id)
      .send(JSON.stringify({ periods: [{ periodId: '2026-04', revenue: '1.00', costs: '0' }] }))
      .expect(200);
    const before = await traces(project.id, scenario.id);
    const kept = await patchAs(scenario.id, `"${scenario.id}.2"`).send('{}').expect(200);
    expect(kept.headers['etag']).toBe(`"${scenario.id}.2"`);
    const stale = await patchAs(scenario.id, `"${scenario.id}.1"`).send('{}').expect(412);
    expect(stale.body).toMatchObject({ code: 'precondition_failed', domainCode: 'scenarios.changed' });
    expect(await traces(project.id, scenario.id)).toEqual(before);
  });
});

describe('authorization fails closed', () => {
  it.each(UNAVAILABLE_MODES)('answers 503 authorization_unavailable when identity answers %s, and writes nothing', async (mode) => {
    const before = await counts();
    identity.mode = mode;
    const response = await request(api.server).post('/api/v2/split-projects').set(as(ORG_A)).send(newProject()).expect(503);
    expect(response.body.code).toBe('authorization_unavailable');
    expect(await counts()).toEqual(before);
  });

  it('refuses a bearer longer than any credential (401) and a project id longer than any id (404) without asking identity', async () => {
    identity.questions.length = 0;
    const long = await request(api.server)
      .get('/api/v2/split-projects')
      .set({ Authorization: `Bearer ${'a'.repeat(8193)}`, 'X-Organization-Id': ORG_A })
      .expect(401);
    expect(long.body.code).toBe('unauthenticated');
    const longId = await request(api.server)
      .get(`/api/v2/split-projects/${'p'.repeat(201)}`)
      .set(as(ORG_A))
      .expect(404);
    expect(longId.body.detail.length).toBeLessThan(200);
    expect(identity.questions).toEqual([]);
    await request(api.server)
      .get(`/api/v2/split-projects/${'p'.repeat(200)}`)
      .set(as(ORG_A))
      .expect(400);
    expect(identity.questions).toHaveLength(1);
  });

  it('answers 403 when identity denies, and writes nothing', async () => {
    const before = await counts();
    identity.mode = 'deny';
    await request(api.server).post('/api/v2/split-projects').set(as(ORG_A)).send(newProject()).expect(403);
    expect(await counts()).toEqual(before);
  });

  it('answers 503 when identity is not running at all', async () => {
    const offline = await startStandardsApi({
      IDENTITY_URL: 'http://127.0.0.1:9',
      IDENTITY_SERVICE_TOKEN: 'offline-service-token-0123456789abcdef',
      AUTHZ_TIMEOUT_MS: '300',
    });
    try {
      const response = await request(offline.server).post('/api/v2/split-projects').set(as(ORG_A)).send(newProject()).expect(503);
      expect(response.body.code).toBe('authorization_unavailable');
      expect((await offline.dataSource.query('SELECT count(*)::int AS n FROM split_project'))[0].n).toBe(0);
    } finally {
      await offline.close();
    }
  });
});
