// What an actor does at a step, and which answers the contract allows for it. What exists (projects,
// scenarios, standing runs) is read from standards-api's database when the step starts, so a seed's
// schedule picks among what is really there; every 2xx answer is remembered (nothing it reported may
// be lost later) and every answer outside the contract is a violation.
import { sampleScenario } from '@stdreg/server-kit/testing';
import { canonicalJson } from '@stdreg/split-engine';
import type { Answer, Caller, Person, Request } from './actors';
import type { Query } from './database';
import { pick, type Operation, type ScheduledOperation } from './schedule';

export class Violation extends Error {}

/** The facts the API reported as done (2xx): each must still be in the database, unchanged, at every check. */
export interface Acknowledged {
  projects: Set<string>;
  revisions: Set<string>;
  ruleVersions: Map<string, string>;
  runs: Map<string, string>;
}

/** A POST that answered 2xx with an Idempotency-Key: retried later with the same key. */
interface KeyedPost {
  request: Request;
  status: number;
  body: Record<string, unknown>;
}

export interface OperationContext {
  seed: number;
  step: number;
  caller: Caller;
  /** standards-api's database, read as the step starts and after a refusal. */
  query: Query;
  acknowledged: Acknowledged;
  history: Map<string, KeyedPost[]>;
  appKeys: Map<string, string>;
  /** Other operations run at the same time: their writes may make this one's answer a 409 or 412. */
  racing: boolean;
  /** identity answers slowly in this step: a 503 `authorization.unavailable` (nothing done) is an allowed answer. */
  identitySlow: boolean;
  /** Projects this step touched: the API checks read them back. */
  touched: Set<string>;
}

const PERIODS = ['2026-01', '2026-02', '2026-03', '2026-04'];
const DAY_MS = 24 * 3600_000;
/** Counted to show that a refused write wrote nothing. */
const WRITTEN_TABLES = [
  'split_project',
  'operating_scenario',
  'scenario_revision',
  'rule_version',
  'settlement_run',
  'equity_ledger_entry',
  'write_audit',
];

/** A scenario of the sample's participants with drawn shares and fee, so allocations round differently. */
function scenarioContent(draws: number[]): Record<string, unknown> {
  const alice = 1 + Math.floor(draws[0]! * 9998);
  const fee = (Math.floor(draws[1]! * 100_000) / 100).toFixed(2);
  return { ...sampleScenario(), tiers: tiersOf(alice, fee) };
}

function tiersOf(aliceBasisPoints: number, fee: string): Record<string, unknown>[] {
  return [
    {
      tierId: 'platform-fee',
      kind: 'fixed',
      label: { en: 'Platform fee', 'zh-Hans': '平台费' },
      allocations: [{ participantId: 'platform', amount: fee }],
    },
    {
      tierId: 'revenue-share',
      kind: 'percentage',
      label: { en: 'Revenue share', 'zh-Hans': '收入分成' },
      shares: [
        { participantId: 'alice', basisPoints: aliceBasisPoints },
        { participantId: 'bob', basisPoints: 10_000 - aliceBasisPoints },
      ],
    },
  ];
}

/** An amount with two decimals below `max`, drawn. */
const amount = (draw: number, max: number) => (Math.floor(draw * max * 100) / 100).toFixed(2);

async function counts(query: Query): Promise<Record<string, number>> {
  const [row] = await query<Record<string, number>>(
    `SELECT ${WRITTEN_TABLES.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')}`,
  );
  return row!;
}

interface World {
  projects: { id: string; versions: number; latestEffective: string | null }[];
}

async function projectsOf(query: Query, organizationId: string): Promise<World['projects']> {
  return query(
    `SELECT p.id, count(r.version)::int AS versions, max(r.effective_from)::text AS "latestEffective"
       FROM split_project p LEFT JOIN rule_version r ON r.project_id = p.id
      WHERE p.organization_id = $1 GROUP BY p.id ORDER BY min(p.created_at), p.id`,
    [organizationId],
  );
}

async function scenariosOf(query: Query, projectId: string): Promise<{ id: string; revision: number }[]> {
  return query(
    `SELECT s.id, max(r.revision)::int AS revision FROM operating_scenario s JOIN scenario_revision r ON r.scenario_id = s.id
      WHERE s.project_id = $1 GROUP BY s.id ORDER BY min(s.created_at), s.id`,
    [projectId],
  );
}

/** Runs of a project: `standing` when no run corrects it. */
async function runsOf(query: Query, projectId: string): Promise<{ id: string; periodId: string; standing: boolean }[]> {
  return query(
    `SELECT s.id, s.period_id AS "periodId", NOT EXISTS (SELECT 1 FROM settlement_run c WHERE c.reverses_run_id = s.id) AS standing
       FROM settlement_run s WHERE s.project_id = $1 ORDER BY s.posted_at, s.id`,
    [projectId],
  );
}

export class Operations {
  private keys = 0;

  constructor(private readonly context: OperationContext) {}

  async run(person: Person, scheduled: ScheduledOperation): Promise<Operation> {
    const projects = await projectsOf(this.context.query, person.organizationId);
    const project = pick(projects, scheduled.draws[0]!);
    const activated = projects.filter((candidate) => candidate.versions > 0);
    const d = scheduled.draws;
    // An operation with nothing to act on yet falls back to the one that makes it possible.
    if (!project) return this.createProject(person, d);
    switch (scheduled.operation) {
      case 'create-project':
        return this.createProject(person, d);
      case 'branch-scenario':
        return this.branchScenario(person, project.id, d);
      case 'revise-scenario':
        return this.reviseScenario(person, project.id, d, false);
      case 'revise-stale':
        return this.reviseScenario(person, project.id, d, true);
      case 'compare-scenarios':
        return this.compareScenarios(person, project.id, d);
      case 'activate':
        return this.activate(person, project);
      case 'create-rule-version':
        return activated.length ? this.createRuleVersion(person, pick(activated, d[1]!)!, d) : this.activate(person, project);
      case 'post-settlement':
      case 'correct-settlement':
      case 'post-settled-period':
        return activated.length ? this.settle(person, pick(activated, d[1]!)!.id, scheduled.operation, d) : this.activate(person, project);
      case 'retry-same-key':
        return this.retry(person, d, false);
      case 'retry-other-body':
        return this.retry(person, d, true);
      case 'formal-write-by-key':
        return this.formalWriteByKey(person, project.id, activated.length > 0);
    }
  }

  private newKey(): string {
    return `sim-${this.context.seed}-${this.context.step}-${this.keys++}-${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Sends, checks the status against what the contract allows, and remembers a keyed 2xx. */
  private async send(person: Person, request: Request, allowed: number[], what: string): Promise<Answer> {
    const answer = await this.context.caller.send({ token: person.token, organizationId: person.organizationId, person }, request);
    const tolerated = answer.resent > 0 ? [409, 412] : [];
    if (this.failedClosed(answer)) return answer;
    if (!allowed.includes(answer.status) && !tolerated.includes(answer.status)) {
      throw new Violation(
        `${what}: ${request.method} ${request.path} answered ${answer.status}, allowed ${allowed.join('/')}: ${JSON.stringify(answer.body).slice(0, 600)}`,
      );
    }
    const key = request.headers?.['idempotency-key'];
    if (key && answer.status >= 200 && answer.status < 300) {
      const mine = this.context.history.get(person.name) ?? [];
      mine.push({ request, status: answer.status, body: answer.body });
      this.context.history.set(person.name, mine);
    }
    return answer;
  }

  /** identity was too slow to ask, so standards-api refused: allowed while identity is slow. */
  private failedClosed(answer: Answer): boolean {
    return this.context.identitySlow && answer.status === 503 && answer.body['domainCode'] === 'authorization.unavailable';
  }

  /** A refusal wrote nothing: no row in any table of facts (unless a racing step's other writes). */
  private async refusedWritingNothing(before: Record<string, number>, answer: Answer, what: string): Promise<void> {
    if (this.context.racing || answer.resent > 0) return;
    const after = await counts(this.context.query);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      throw new Violation(`${what} was refused (${answer.status}) but wrote: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    }
  }

  private async createProject(person: Person, d: number[]): Promise<Operation> {
    const name = `Simulated ${this.context.seed}/${this.context.step}/${this.keys}`;
    const body = { name, currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: scenarioContent(d.slice(2)) } };
    const answer = await this.send(
      person,
      { method: 'POST', path: '/split-projects', body, headers: { 'idempotency-key': this.newKey() } },
      [201],
      'creating a project',
    );
    const [{ n }] = (await this.context.query<{ n: number }>('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name])) as [
      { n: number },
    ];
    if (n > 1 || (answer.status === 201 && n !== 1) || (answer.status !== 201 && answer.resent === 0 && n !== 0)) {
      throw new Violation(`creating project "${name}" answered ${answer.status} and left ${n} projects of that name`);
    }
    if (answer.status === 201) {
      const created = answer.body as { project: { id: string }; scenario: { id: string } };
      this.context.acknowledged.projects.add(created.project.id);
      this.context.acknowledged.revisions.add(`${created.scenario.id}.1`);
      this.context.touched.add(created.project.id);
    }
    return 'create-project';
  }

  private async branchScenario(person: Person, projectId: string, d: number[]): Promise<Operation> {
    const from = pick(await scenariosOf(this.context.query, projectId), d[2]!)!;
    const body = { fromScenarioId: from.id, name: `Branch ${this.context.step}` };
    const answer = await this.send(
      person,
      { method: 'POST', path: `/split-projects/${projectId}/scenarios`, body, headers: { 'idempotency-key': this.newKey() } },
      [201],
      'branching a scenario',
    );
    if (answer.status === 201) this.context.acknowledged.revisions.add(`${answer.body['id'] as string}.1`);
    this.context.touched.add(projectId);
    return 'branch-scenario';
  }

  private async reviseScenario(person: Person, projectId: string, d: number[], stale: boolean): Promise<Operation> {
    const scenario = pick(await scenariosOf(this.context.query, projectId), d[2]!)!;
    // Behind the revision read, never ahead of it: a racing actor could make a later revision current.
    const staleRevision = scenario.revision - 1;
    const ifMatch = `"${scenario.id}.${stale ? staleRevision : scenario.revision}"`;
    const before = await counts(this.context.query);
    const answer = await this.send(
      person,
      {
        method: 'PATCH',
        path: `/operating-scenarios/${scenario.id}`,
        body: { tiers: tiersOf(1 + Math.floor(d[3]! * 9998), amount(d[4]!, 800)) },
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': ifMatch },
      },
      stale ? [412] : this.context.racing ? [200, 412] : [200],
      stale ? 'revising with a stale If-Match' : 'revising a scenario',
    );
    if (answer.status === 200) {
      const revision = answer.body['revision'] as number;
      if (revision !== scenario.revision + 1) throw new Violation(`revising ${ifMatch} answered revision ${revision}`);
      this.context.acknowledged.revisions.add(`${scenario.id}.${revision}`);
    } else {
      await this.refusedWritingNothing(before, answer, 'a stale revision');
    }
    this.context.touched.add(projectId);
    return stale ? 'revise-stale' : 'revise-scenario';
  }

  private async compareScenarios(person: Person, projectId: string, d: number[]): Promise<Operation> {
    const scenarios = await scenariosOf(this.context.query, projectId);
    if (scenarios.length < 2) return this.branchScenario(person, projectId, d);
    const chosen = scenarios.slice(0, 2 + Math.floor(d[2]! * Math.min(3, scenarios.length - 1)));
    const before = await counts(this.context.query);
    const answer = await this.send(
      person,
      {
        method: 'POST',
        path: `/split-projects/${projectId}/scenario-comparisons`,
        body: { scenarios: chosen.map((s) => ({ scenarioId: s.id })) },
      },
      [200],
      'comparing scenarios',
    );
    await this.refusedWritingNothing(before, { ...answer, status: 0 }, 'a comparison (writes nothing)');
    return 'compare-scenarios';
  }

  /** The two steps of a formal write: the 428 challenge, then the same body with its token and a key. */
  private async confirmed(person: Person, path: string, body: Record<string, unknown>, allowed: number[], what: string): Promise<Answer> {
    const challenge = await this.send(
      person,
      { method: 'POST', path, body },
      [428, ...allowed.filter((s) => s !== 201)],
      `${what} (challenge)`,
    );
    if (challenge.status !== 428) return challenge;
    const confirmationToken = challenge.body['confirmationToken'] as string;
    return this.send(
      person,
      { method: 'POST', path, body: { ...body, confirmationToken }, headers: { 'idempotency-key': this.newKey() } },
      this.context.racing ? [...allowed, 409] : allowed,
      `${what} (confirmed)`,
    );
  }

  private async activate(person: Person, project: World['projects'][number]): Promise<Operation> {
    const scenario = (await scenariosOf(this.context.query, project.id))[0]!;
    const already = project.versions > 0;
    const before = await counts(this.context.query);
    const answer = await this.confirmed(
      person,
      `/split-projects/${project.id}/activate`,
      { scenarioId: scenario.id },
      already ? [409] : this.context.racing ? [201, 409] : [201],
      'activating',
    );
    if (answer.status === 201) this.context.acknowledged.ruleVersions.set(`${project.id}.1`, answer.body['rulesDigest'] as string);
    else await this.refusedWritingNothing(before, answer, 'activating an active project');
    this.context.touched.add(project.id);
    return 'activate';
  }

  private async createRuleVersion(person: Person, project: World['projects'][number], d: number[]): Promise<Operation> {
    const scenario = pick(await scenariosOf(this.context.query, project.id), d[2]!)!;
    const latest = Math.max(Date.now(), Date.parse(project.latestEffective ?? '1970-01-01T00:00:00Z'));
    const effectiveFrom = new Date(latest + (1 + Math.floor(d[3]! * 30)) * DAY_MS).toISOString();
    const path = `/split-projects/${project.id}/rule-versions`;
    const body = { scenarioId: scenario.id, effectiveFrom };
    const allowed = this.context.racing ? [201, 409, 422] : [201];
    const first = await this.send(
      person,
      { method: 'POST', path, body, headers: { 'idempotency-key': this.newKey() } },
      [...allowed, 428],
      'creating a rule version',
    );
    const answer = first.status === 428 ? await this.confirmed(person, path, body, allowed, 'creating a rule version') : first;
    if (answer.status === 201) {
      this.context.acknowledged.ruleVersions.set(`${project.id}.${answer.body['version'] as number}`, answer.body['rulesDigest'] as string);
    }
    this.context.touched.add(project.id);
    return 'create-rule-version';
  }

  private async settle(person: Person, projectId: string, operation: Operation, d: number[]): Promise<Operation> {
    const runs = await runsOf(this.context.query, projectId);
    const standing = runs.filter((run) => run.standing);
    const settled = new Set(standing.map((run) => run.periodId));
    const open = PERIODS.filter((period) => !settled.has(period));
    const path = `/split-projects/${projectId}/settlement-runs`;
    const actuals = { periodEnd: new Date().toISOString(), revenue: amount(d[3]!, 20_000), costs: amount(d[4]!, 3_000) };
    this.context.touched.add(projectId);
    const record = (answer: Answer) => {
      if (answer.status === 201) this.context.acknowledged.runs.set(answer.body['id'] as string, answer.body['digest'] as string);
    };
    if (operation === 'post-settlement' && open.length > 0) {
      const body = { periodId: pick(open, d[2]!)!, ...actuals };
      record(await this.confirmed(person, path, body, this.context.racing ? [201, 409] : [201], 'posting a settlement'));
      return operation;
    }
    if (standing.length === 0) return this.settle(person, projectId, 'post-settlement', d);
    const target = pick(standing, d[2]!)!;
    if (operation === 'post-settled-period') {
      const corrected = runs.filter((run) => !run.standing && run.periodId === target.periodId);
      const stale = d[5]! < 0.5 ? pick(corrected, d[5]! * 2) : undefined;
      const body = { periodId: target.periodId, ...actuals, ...(stale ? { correctsRunId: stale.id } : {}) };
      const before = await counts(this.context.query);
      const answer = await this.send(
        person,
        { method: 'POST', path, body },
        [409],
        stale ? 'correcting a corrected run' : 'posting a settled period',
      );
      await this.refusedWritingNothing(before, answer, 'posting a settled period');
      return operation;
    }
    const body = { periodId: target.periodId, ...actuals, correctsRunId: target.id };
    record(await this.confirmed(person, path, body, this.context.racing ? [201, 409] : [201], 'correcting a settlement'));
    return 'correct-settlement';
  }

  private async retry(person: Person, d: number[], otherBody: boolean): Promise<Operation> {
    const earlier = pick(this.context.history.get(person.name) ?? [], d[2]!);
    if (!earlier) return this.createProject(person, d);
    const request = otherBody
      ? { ...earlier.request, body: alteredBody(earlier.request.body as Record<string, unknown>) }
      : earlier.request;
    const before = await counts(this.context.query);
    const answer = await this.context.caller.send({ token: person.token, organizationId: person.organizationId, person }, request);
    const what = `${otherBody ? 'another body under' : 'a retry with'} the key of ${request.method} ${request.path}`;
    if (this.failedClosed(answer)) {
      await this.refusedWritingNothing(before, answer, what);
      return otherBody ? 'retry-other-body' : 'retry-same-key';
    }
    if (otherBody) {
      const field = (answer.body['errors'] as { field?: string }[] | undefined)?.[0]?.field;
      if (answer.status !== 422 || field !== 'Idempotency-Key')
        throw new Violation(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`);
    } else if (
      answer.status !== earlier.status ||
      canonicalJson(answer.body) !== canonicalJson(earlier.body) ||
      answer.headers.get('idempotent-replayed') !== 'true'
    ) {
      throw new Violation(
        `${what} did not return the first answer: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)} (first: ${earlier.status})`,
      );
    }
    await this.refusedWritingNothing(before, { ...answer, status: 0 }, what);
    return otherBody ? 'retry-other-body' : 'retry-same-key';
  }

  /** The organization's App key tries a formal write: refused, nothing written, not even a challenge. */
  private async formalWriteByKey(person: Person, projectId: string, activated: boolean): Promise<Operation> {
    const appKey = this.context.appKeys.get(person.organizationId)!;
    const scenario = (await scenariosOf(this.context.query, projectId))[0]!;
    const request: Request = activated
      ? {
          method: 'POST',
          path: `/split-projects/${projectId}/settlement-runs`,
          body: { periodId: '2026-01', periodEnd: new Date().toISOString(), revenue: '1.00', costs: '0' },
        }
      : { method: 'POST', path: `/split-projects/${projectId}/activate`, body: { scenarioId: scenario.id } };
    const [{ n: challengesBefore }] = (await this.context.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM confirmation_challenge',
    )) as [{ n: number }];
    const before = await counts(this.context.query);
    const answer = await this.context.caller.send({ token: appKey, organizationId: person.organizationId }, request);
    if (answer.status !== 403 && !this.failedClosed(answer))
      throw new Violation(`a formal write by an App key answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`);
    await this.refusedWritingNothing(before, answer, 'a formal write by an App key');
    const [{ n: challengesAfter }] = (await this.context.query<{ n: number }>('SELECT count(*)::int AS n FROM confirmation_challenge')) as [
      { n: number },
    ];
    if (!this.context.racing && challengesAfter !== challengesBefore)
      throw new Violation('a formal write by an App key was given a challenge');
    return 'formal-write-by-key';
  }
}

/** The same request with one field changed, for the same Idempotency-Key. */
function alteredBody(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body['name'] === 'string') return { ...body, name: `${body['name']} (other)` };
  if (typeof body['revenue'] === 'string') return { ...body, revenue: '1.23' };
  if (typeof body['effectiveFrom'] === 'string')
    return { ...body, effectiveFrom: new Date(Date.parse(body['effectiveFrom']) + DAY_MS).toISOString() };
  return { ...body, other: true };
}
