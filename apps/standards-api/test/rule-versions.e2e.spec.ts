import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;

const headers = (credential: string, org: string) => ({ Authorization: `Bearer ${credential}`, 'X-Organization-Id': org });
const member = (org = ORG_A) => headers(`member-of:${org}`, org);
const approver = (org = ORG_A, name?: string) => headers(name ? `approver-${name}-of:${org}` : `approver-of:${org}`, org);
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const count = async (from: string) => (await api.dataSource.query(`SELECT count(*)::int AS n FROM ${from}`))[0].n as number;
const written = async () => ({
  ruleVersions: await count('rule_version'),
  audit: await count("write_audit WHERE outcome = 'success'"),
  challenges: await count('confirmation_challenge'),
  spentTokens: await count('confirmation_challenge WHERE used_at IS NOT NULL'),
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

async function createProject(org = ORG_A): Promise<{ projectId: string; scenarioId: string }> {
  const body = (
    await request(api.server)
      .post('/api/v2/split-projects')
      .set(member(org))
      .send({
        name: 'Studio revenue share',
        currency: 'EUR',
        templateVersion: '2.0',
        scenario: { name: 'Baseline', content: sampleScenario() },
      })
      .expect(201)
  ).body;
  return { projectId: body.project.id, scenarioId: body.scenario.id };
}

const activateCall = (projectId: string, body: Record<string, unknown>, as = approver()) =>
  request(api.server).post(`/api/v2/split-projects/${projectId}/activate`).set(as).send(body);

async function challenge(projectId: string, scenarioId: string, as = approver(), extra: Record<string, unknown> = {}) {
  const response = await activateCall(projectId, { scenarioId, ...extra }, as).expect(428);
  return response.body as { challenge: Record<string, unknown> & { effectiveFrom: string; revision: number }; confirmationToken: string };
}

async function activatedProject(org = ORG_A) {
  const project = await createProject(org);
  const { confirmationToken } = await challenge(project.projectId, project.scenarioId, approver(org));
  await activateCall(project.projectId, { scenarioId: project.scenarioId, confirmationToken }, approver(org)).expect(201);
  return project;
}

const createVersion = (projectId: string, body: Record<string, unknown>, as = approver()) =>
  request(api.server).post(`/api/v2/split-projects/${projectId}/rule-versions`).set(as).send(body);

describe('activation needs an explicit confirmation in two steps', () => {
  it('answers 428 with a challenge and a single-use token, then creates Rule Version 1 with that token', async () => {
    const { projectId, scenarioId } = await createProject();
    const before = await written();
    const asked = Date.now();
    const first = await activateCall(projectId, { scenarioId }).expect(428);
    const answered = Date.now();
    expect(first.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(first.body).toMatchObject({
      status: 428,
      code: 'confirmation_required',
      challenge: {
        projectId,
        scenarioId,
        revision: 1,
        rulesDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        effectiveFrom: expect.any(String),
        expiresAt: expect.any(String),
      },
      confirmationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const { challenge: shown, confirmationToken } = first.body;
    expect(shown.summary.en).toContain('Alice Studio 60%');
    expect(shown.summary['zh-Hans']).toContain('爱丽丝工作室 60%');
    expect(Date.parse(shown.expiresAt) - Date.parse(shown.effectiveFrom)).toBeGreaterThan(9 * 60_000);
    // A token lives 10 minutes from its challenge.
    expect(Date.parse(shown.expiresAt)).toBeGreaterThanOrEqual(asked + 10 * 60_000);
    expect(Date.parse(shown.expiresAt)).toBeLessThanOrEqual(answered + 10 * 60_000);
    const stored = await api.dataSource.query('SELECT * FROM confirmation_challenge WHERE project_id = $1', [projectId]);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ token_sha256: sha256(confirmationToken), subject: `human:approver-${ORG_A}`, used_at: null });
    expect(JSON.stringify(stored)).not.toContain(confirmationToken);
    expect(await written()).toEqual({ ...before, challenges: before.challenges + 1 });

    const second = await activateCall(projectId, { scenarioId, confirmationToken }).expect(201);
    expect(second.body).toEqual({
      projectId,
      version: 1,
      scenarioId,
      revision: 1,
      rulesDigest: shown.rulesDigest,
      rules: sampleScenario(),
      effectiveFrom: shown.effectiveFrom,
      createdBy: `human:approver-${ORG_A}`,
      createdAt: expect.any(String),
    });
    expect(await written()).toEqual({
      ruleVersions: before.ruleVersions + 1,
      audit: before.audit + 1,
      challenges: before.challenges + 1,
      spentTokens: before.spentTokens + 1,
    });
    const audit = await api.dataSource.query('SELECT action, subject_kind, target FROM write_audit ORDER BY at DESC, id DESC LIMIT 1');
    expect(audit[0]).toEqual({ action: 'split-project.activate', subject_kind: 'human', target: projectId });
    expect(identity.questions.at(-1)).toEqual({ action: 'split-project:activate', resource: { organizationId: ORG_A, projectId } });
    const listed = await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions`).set(member()).expect(200);
    expect(listed.body).toEqual({ items: [second.body], nextCursor: null });
    const read = await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions/1`).set(member()).expect(200);
    expect(read.body).toEqual(second.body);
  });

  it('refuses a reused confirmation token, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken } = await challenge(projectId, scenarioId);
    await activateCall(projectId, { scenarioId, confirmationToken }).expect(201);
    const before = await written();
    const again = await activateCall(projectId, { scenarioId, confirmationToken }).expect(409);
    expect(again.body.detail).toMatch(/already activated/);
    expect(await written()).toEqual(before);
  });

  it('refuses a token already spent by a refused confirmation', async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken } = await challenge(projectId, scenarioId);
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({ periods: [{ periodId: '2026-03', revenue: '1.00', costs: '0' }] })
      .expect(200);
    await activateCall(projectId, { scenarioId, confirmationToken }).expect(409);
    const before = await written();
    const reused = await activateCall(projectId, { scenarioId, confirmationToken }).expect(409);
    expect(reused.body.detail).toMatch(/already been used/);
    expect(await written()).toEqual(before);
  });

  it('refuses an expired confirmation token, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken } = await challenge(projectId, scenarioId);
    await api.dataSource.query(`UPDATE confirmation_challenge SET expires_at = now() - interval '1 second' WHERE token_sha256 = $1`, [
      sha256(confirmationToken),
    ]);
    const before = await written();
    const expired = await activateCall(projectId, { scenarioId, confirmationToken }).expect(409);
    expect(expired.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/expired/) });
    expect(await written()).toEqual(before);
  });

  it("refuses another approver's token with 403 and leaves it usable by its owner", async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken } = await challenge(projectId, scenarioId, approver(ORG_A, 'carol'));
    const before = await written();
    const stolen = await activateCall(projectId, { scenarioId, confirmationToken }, approver()).expect(403);
    expect(stolen.body.detail).toMatch(/not issued to you/);
    expect(await written()).toEqual(before);
    const own = await activateCall(projectId, { scenarioId, confirmationToken }, approver(ORG_A, 'carol')).expect(201);
    expect(own.body.createdBy).toBe(`human:carol-${ORG_A}`);
  });

  it('refuses a token for another project, and an unknown token', async () => {
    const first = await createProject();
    const other = await createProject();
    const { confirmationToken } = await challenge(first.projectId, first.scenarioId);
    const before = await written();
    await activateCall(other.projectId, { scenarioId: other.scenarioId, confirmationToken }).expect(403);
    await activateCall(first.projectId, { scenarioId: first.scenarioId, confirmationToken: 'x'.repeat(43) }).expect(403);
    expect(await written()).toEqual(before);
  });

  it('refuses the token when the scenario changed after the challenge, and spends it', async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken } = await challenge(projectId, scenarioId);
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({
        tiers: [
          {
            tierId: 'all',
            kind: 'percentage',
            label: { en: 'All', 'zh-Hans': '全部' },
            shares: [{ participantId: 'alice', basisPoints: 10000 }],
          },
        ],
      })
      .expect(200);
    const before = await written();
    const changed = await activateCall(projectId, { scenarioId, confirmationToken }).expect(409);
    expect(changed.body.detail).toMatch(/changed since the challenge/);
    expect(await written()).toEqual({ ...before, spentTokens: before.spentTokens + 1 });
    const renewed = await challenge(projectId, scenarioId);
    expect(renewed.challenge.revision).toBe(2);
  });

  it('refuses a token presented with another scenario, revision or effective time than it confirms, without spending it', async () => {
    const { projectId, scenarioId } = await createProject();
    const { confirmationToken, challenge: shown } = await challenge(projectId, scenarioId, approver(), { effectiveFrom: inHours(1) });
    const branch = await request(api.server)
      .post(`/api/v2/split-projects/${projectId}/scenarios`)
      .set(member())
      .send({ fromScenarioId: scenarioId, name: 'Branch' })
      .expect(201);
    const before = await written();
    await activateCall(projectId, { scenarioId, confirmationToken, effectiveFrom: inHours(2) }).expect(409);
    await activateCall(projectId, { scenarioId, confirmationToken, revision: 2 }).expect(409);
    await activateCall(projectId, { scenarioId: branch.body.id, confirmationToken, effectiveFrom: shown.effectiveFrom }).expect(409);
    expect(await written()).toEqual(before);
    const confirmed = await activateCall(projectId, {
      scenarioId,
      confirmationToken,
      revision: 1,
      effectiveFrom: shown.effectiveFrom,
    }).expect(201);
    expect(confirmed.body.effectiveFrom).toBe(shown.effectiveFrom);
  });

  it('activates a project once', async () => {
    const { projectId, scenarioId } = await createProject();
    const early = await challenge(projectId, scenarioId, approver(ORG_A, 'dave'));
    const { confirmationToken } = await challenge(projectId, scenarioId);
    await activateCall(projectId, { scenarioId, confirmationToken }).expect(201);
    const before = await written();
    const secondChallenge = await activateCall(projectId, { scenarioId }).expect(409);
    expect(secondChallenge.body.detail).toMatch(/already activated/);
    await activateCall(projectId, { scenarioId, confirmationToken: early.confirmationToken }, approver(ORG_A, 'dave')).expect(409);
    expect(await written()).toEqual(before);
    expect(await count(`rule_version WHERE project_id = '${projectId}'`)).toBe(1);
  });

  it('refuses an API key whatever identity answers, writing nothing (not even a challenge) but its own refusal, as denied', async () => {
    const { projectId, scenarioId } = await createProject();
    const before = await written();
    const appKey = await activateCall(projectId, { scenarioId }, headers(`stdreg_app_x_of:${ORG_A}`, ORG_A)).expect(403);
    expect(appKey.body.detail).toBe('Not allowed: human_required.');
    const misjudged = await activateCall(projectId, { scenarioId }, headers(`stdreg_misjudged_of:${ORG_A}`, ORG_A)).expect(403);
    expect(misjudged.body.detail).toMatch(/^Not allowed: human_required\. Only a signed-in person/);
    expect(await written()).toEqual(before);
  });

  it('refuses a member without an approving role with 403 role_required, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    const before = await written();
    const response = await activateCall(projectId, { scenarioId }, member()).expect(403);
    expect(response.body).toMatchObject({ code: 'forbidden', detail: 'Not allowed: role_required.' });
    expect(await written()).toEqual(before);
  });

  it("gives 404 for another organization's project and for a scenario of another project", async () => {
    const { projectId, scenarioId } = await createProject();
    const other = await createProject();
    const before = await written();
    await activateCall(projectId, { scenarioId }, approver(ORG_B)).expect(404);
    await activateCall(projectId, { scenarioId: other.scenarioId }).expect(404);
    await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions`).set(member(ORG_B)).expect(404);
    expect(await written()).toEqual(before);
  });

  it("gives 404 for a rule version of another organization's project", async () => {
    const { projectId, scenarioId } = await activatedProject();
    const other = await activatedProject(ORG_B);
    const own = await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions/1`).set(member()).expect(200);
    expect(own.body).toMatchObject({ projectId, scenarioId, version: 1 });
    const theirs = await request(api.server)
      .get(`/api/v2/split-projects/${other.projectId}/rule-versions/1`)
      .set(member(ORG_B))
      .expect(200);
    expect(theirs.body).toMatchObject({ projectId: other.projectId, scenarioId: other.scenarioId, version: 1 });
    await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions/1`).set(member(ORG_B)).expect(404);
  });

  it('refuses an explicit effective time in the past, a stale revision and unknown fields, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({ periods: [{ periodId: '2026-03', revenue: '1.00', costs: '0' }] })
      .expect(200);
    const before = await written();
    const past = await activateCall(projectId, { scenarioId, effectiveFrom: inHours(-1) }).expect(422);
    expect(past.body.errors[0].field).toBe('effectiveFrom');
    await activateCall(projectId, { scenarioId, revision: 1 }).expect(409);
    const extra = await activateCall(projectId, { scenarioId, confirm: true }).expect(400);
    expect(extra.body.errors[0].field).toBe('confirm');
    expect(await written()).toEqual(before);
  });
});

describe('rule versions', () => {
  it('creates version n+1 from a scenario revision, effective in the future, and lists and reads them', async () => {
    const { projectId, scenarioId } = await activatedProject();
    await request(api.server)
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(member())
      .send({ periods: [{ periodId: '2026-03', revenue: '1.00', costs: '0' }] })
      .expect(200);
    const effectiveFrom = inHours(24);
    const created = await createVersion(projectId, { scenarioId, effectiveFrom }).expect(201);
    expect(created.body).toMatchObject({
      projectId,
      version: 2,
      scenarioId,
      revision: 2,
      effectiveFrom,
      createdBy: `human:approver-${ORG_A}`,
    });
    const fromPast = await createVersion(projectId, { scenarioId, revision: 1, effectiveFrom: inHours(48) }).expect(201);
    expect(fromPast.body).toMatchObject({ version: 3, revision: 1, rules: sampleScenario() });
    const page = await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions?limit=2`).set(member()).expect(200);
    expect(page.body.items.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    const rest = await request(api.server)
      .get(`/api/v2/split-projects/${projectId}/rule-versions?limit=2&cursor=${page.body.nextCursor}`)
      .set(member())
      .expect(200);
    expect(rest.body).toEqual({ items: [fromPast.body], nextCursor: null });
    await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions/4`).set(member()).expect(404);
    // A full last page hands out no cursor.
    const whole = await request(api.server).get(`/api/v2/split-projects/${projectId}/rule-versions?limit=3`).set(member()).expect(200);
    expect(whole.body.items.map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    expect(whole.body.nextCursor).toBeNull();
    const versions = (cursor: string) =>
      request(api.server)
        .get(`/api/v2/split-projects/${projectId}/rule-versions?cursor=${encodeURIComponent(cursor)}`)
        .set(member());
    const forged = Buffer.from(JSON.stringify(['rule-versions', '1 OR 1=1'])).toString('base64url');
    const foreign = Buffer.from(JSON.stringify(['revisions', '1'])).toString('base64url');
    for (const cursor of [forged, foreign, 'not-a-cursor!']) {
      expect((await versions(cursor).expect(400)).body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    }
    expect(identity.questions.some((q) => q.action === 'rule-version:create')).toBe(true);
  });

  it('refuses a malformed activation or rule version body with a 400 naming the field, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    const before = await written();
    for (const [body, field] of [
      [{ scenarioId: 'not-a-uuid' }, 'scenarioId'],
      [{ scenarioId, effectiveFrom: '2027-02-30T00:00:00Z' }, 'effectiveFrom'],
      [{ scenarioId, effectiveFrom: '2027-01-01' }, 'effectiveFrom'],
      [{ scenarioId, confirmationToken: 't'.repeat(201) }, 'confirmationToken'],
    ] as const) {
      const response = await activateCall(projectId, body).expect(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(await written()).toEqual(before);
    const active = await activatedProject();
    const afterActivation = await written();
    const malformed = await createVersion(active.projectId, { scenarioId: 'not-a-uuid', effectiveFrom: inHours(72) }).expect(400);
    expect(malformed.body.errors.map((e: { field: string }) => e.field)).toEqual(['scenarioId']);
    expect(await written()).toEqual(afterActivation);
  });

  it('refuses an effective time that is not in the future or not after the latest version, writing nothing', async () => {
    const { projectId, scenarioId } = await activatedProject();
    const later = inHours(72);
    await createVersion(projectId, { scenarioId, effectiveFrom: later }).expect(201);
    const before = await written();
    const past = await createVersion(projectId, { scenarioId, effectiveFrom: inHours(-1) }).expect(422);
    expect(past.body.errors).toEqual([{ field: 'effectiveFrom', message: 'effectiveFrom must be in the future' }]);
    const notAfter = await createVersion(projectId, { scenarioId, effectiveFrom: inHours(24) }).expect(422);
    expect(notAfter.body.errors[0]).toEqual({ field: 'effectiveFrom', message: `effectiveFrom must be after ${later}` });
    await createVersion(projectId, { scenarioId, effectiveFrom: later }).expect(422);
    const malformed = await createVersion(projectId, { scenarioId, effectiveFrom: 'tomorrow' }).expect(400);
    expect(malformed.body.errors[0].field).toBe('effectiveFrom');
    expect(await written()).toEqual(before);
  });

  it('refuses a rule version from a scenario of another project of the organization with 404, writing nothing', async () => {
    const { projectId } = await activatedProject();
    const other = await createProject();
    const before = await written();
    const response = await createVersion(projectId, { scenarioId: other.scenarioId, effectiveFrom: inHours(24) }).expect(404);
    expect(response.body.domainCode).toBe('rule_versions.scenario_not_in_project');
    expect(await written()).toEqual(before);
  });

  it('refuses a rule version before activation with 409, writing nothing', async () => {
    const { projectId, scenarioId } = await createProject();
    const before = await written();
    const response = await createVersion(projectId, { scenarioId, effectiveFrom: inHours(24) }).expect(409);
    expect(response.body.detail).toMatch(/not activated/);
    expect(await written()).toEqual(before);
  });

  it('refuses API keys and members without an approving role, writing nothing', async () => {
    const { projectId, scenarioId } = await activatedProject();
    const before = await written();
    const body = { scenarioId, effectiveFrom: inHours(24) };
    expect((await createVersion(projectId, body, headers(`stdreg_app_x_of:${ORG_A}`, ORG_A)).expect(403)).body.detail).toBe(
      'Not allowed: human_required.',
    );
    expect((await createVersion(projectId, body, headers(`stdreg_misjudged_of:${ORG_A}`, ORG_A)).expect(403)).body.detail).toMatch(
      /human_required/,
    );
    expect((await createVersion(projectId, body, member()).expect(403)).body.detail).toBe('Not allowed: role_required.');
    await createVersion(projectId, body, approver(ORG_B)).expect(404);
    expect(await written()).toEqual(before);
  });

  it('numbers 10 racing creations 2 to 11 with no gap and no duplicate', async () => {
    const { projectId, scenarioId } = await activatedProject();
    const base = Date.now() + 86_400_000;
    // Racing requests reach the lock in any order, so one that lost to a later effective time retries later still.
    const create = async (worker: number): Promise<number> => {
      for (let round = 0; round < 20; round += 1) {
        const effectiveFrom = new Date(base + round * 3_600_000 + worker * 60_000).toISOString();
        const response = await createVersion(projectId, { scenarioId, effectiveFrom });
        if (response.status === 201) return response.body.version as number;
        expect(response.status).toBe(422);
      }
      throw new Error('never created');
    };
    const versions = await Promise.all(Array.from({ length: 10 }, (_, worker) => create(worker)));
    expect([...versions].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const rows: { version: number; effective_from: Date }[] = await api.dataSource.query(
      'SELECT version, effective_from FROM rule_version WHERE project_id = $1 ORDER BY version',
      [projectId],
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    rows.slice(1).forEach((row, i) => expect(row.effective_from.getTime()).toBeGreaterThan(rows[i]!.effective_from.getTime()));
  });

  it('is immutable in the database itself', async () => {
    const { projectId } = await activatedProject();
    await expect(api.dataSource.query('UPDATE rule_version SET effective_from = now() WHERE project_id = $1', [projectId])).rejects.toThrow(
      /append-only/,
    );
    await expect(api.dataSource.query('DELETE FROM rule_version WHERE project_id = $1', [projectId])).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query('TRUNCATE rule_version')).rejects.toThrow(/append-only/);
    expect(await count(`rule_version WHERE project_id = '${projectId}'`)).toBe(1);
  });
});
