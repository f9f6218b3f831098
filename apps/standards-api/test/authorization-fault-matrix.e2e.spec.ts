// The authorization fault matrix: every protected operation (read from the OpenAPI document the app
// builds) against every way identity can fail to answer. Each cell is refused 503 authorization_unavailable,
// writes no row, is counted once as outcome="unavailable", and the operation works again once identity does.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FAULT_MODES, type FaultMode } from '@stdreg/server-kit/testing';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { sampleScenario } from './support/sample-scenario';

const ORG = randomUUID();
const approver = credentialHeaders(`approver-of:${ORG}`, ORG);
let running: ProtectedApi;

/** What the recipes act on: an activated project with a posted settlement run, a project still in draft, and one to discard. */
interface Fixture {
  projectId: string;
  scenarioId: string;
  draftProjectId: string;
  draftScenarioId: string;
  discardedProjectId: string;
  settlementRunId: string;
}
let fixture: Fixture;

interface Recipe {
  /** The request as the operation's client would make it, with `approver` as the credential. */
  send(f: Fixture): request.Test;
  /** The status it answers when identity allows (428: a formal write's challenge, the first of its two steps). */
  allowed: number;
}

const newProject = () => ({
  name: 'Matrix',
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const actuals = (periodId = '2026-02') => ({ periodId, revenue: '12000', costs: '2500.01', periodEnd: new Date().toISOString() });
let laterVersions = 0;
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const server = () => running.api.server;
const get = (path: string) => request(server()).get(path).set(approver);
const post = (path: string, body: unknown) =>
  request(server())
    .post(path)
    .set(approver)
    .send(body as object);

/** One recipe per protected operation, keyed `METHOD /path` as the OpenAPI document names it. */
const RECIPES: Record<string, Recipe> = {
  'POST /api/v2/split-projects': { send: () => post('/api/v2/split-projects', newProject()), allowed: 201 },
  'GET /api/v2/split-projects': { send: () => get('/api/v2/split-projects'), allowed: 200 },
  'GET /api/v2/split-projects/{id}': { send: (f) => get(`/api/v2/split-projects/${f.projectId}`), allowed: 200 },
  // The first allowed discard discards it; every later one answers that discard again.
  'DELETE /api/v2/split-projects/{id}': {
    send: (f) => request(server()).delete(`/api/v2/split-projects/${f.discardedProjectId}`).set(approver),
    allowed: 200,
  },
  'GET /api/v2/split-projects/{id}/scenarios': { send: (f) => get(`/api/v2/split-projects/${f.projectId}/scenarios`), allowed: 200 },
  'POST /api/v2/split-projects/{id}/scenarios': {
    send: (f) => post(`/api/v2/split-projects/${f.projectId}/scenarios`, { fromScenarioId: f.scenarioId, name: 'Optimistic' }),
    allowed: 201,
  },
  'GET /api/v2/operating-scenarios/{id}': { send: (f) => get(`/api/v2/operating-scenarios/${f.scenarioId}`), allowed: 200 },
  'GET /api/v2/operating-scenarios/{id}/revisions': {
    send: (f) => get(`/api/v2/operating-scenarios/${f.scenarioId}/revisions`),
    allowed: 200,
  },
  'PATCH /api/v2/operating-scenarios/{id}': {
    send: (f) =>
      request(server())
        .patch(`/api/v2/operating-scenarios/${f.scenarioId}`)
        .set(approver)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ periods: [{ periodId: '2026-03', revenue: '5000.00', costs: '100.00' }] })),
    allowed: 200,
  },
  'POST /api/v2/split-projects/{id}/scenario-comparisons': {
    send: (f) =>
      post(`/api/v2/split-projects/${f.projectId}/scenario-comparisons`, {
        scenarios: [
          { scenarioId: f.scenarioId, revision: 1 },
          { scenarioId: f.scenarioId, revision: 1 },
        ],
      }),
    allowed: 200,
  },
  'POST /api/v2/split-projects/{id}/activate': {
    send: (f) => post(`/api/v2/split-projects/${f.draftProjectId}/activate`, { scenarioId: f.draftScenarioId }),
    allowed: 428,
  },
  'POST /api/v2/split-projects/{id}/rule-versions': {
    send: (f) =>
      post(`/api/v2/split-projects/${f.projectId}/rule-versions`, {
        scenarioId: f.scenarioId,
        effectiveFrom: inHours(24 + ++laterVersions),
      }),
    allowed: 201,
  },
  'GET /api/v2/split-projects/{id}/rule-versions': {
    send: (f) => get(`/api/v2/split-projects/${f.projectId}/rule-versions`),
    allowed: 200,
  },
  'GET /api/v2/split-projects/{id}/rule-versions/{version}': {
    send: (f) => get(`/api/v2/split-projects/${f.projectId}/rule-versions/1`),
    allowed: 200,
  },
  'POST /api/v2/split-projects/{id}/settlement-runs': {
    send: (f) => post(`/api/v2/split-projects/${f.projectId}/settlement-runs`, actuals()),
    allowed: 428,
  },
  'GET /api/v2/split-projects/{id}/settlement-runs': {
    send: (f) => get(`/api/v2/split-projects/${f.projectId}/settlement-runs`),
    allowed: 200,
  },
  'GET /api/v2/settlement-runs/{id}': { send: (f) => get(`/api/v2/settlement-runs/${f.settlementRunId}`), allowed: 200 },
  'GET /api/v2/equity-ledgers/{legalEntityId}': { send: () => get('/api/v2/equity-ledgers/LEI-ALICE-0002'), allowed: 200 },
};

/** The operations the OpenAPI document marks as needing a credential (every @Authorize route), as `METHOD /path`. */
function protectedOperations(): string[] {
  const document = buildOpenApiDocument(running.api.app);
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { security?: Record<string, unknown>[] }>)
      .filter(([, operation]) => operation.security?.some((requirement) => 'credential' in requirement))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

/** Rows of every table of the service, in one query (the table list from information_schema). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables: { table_name: string }[] = await running.api.dataSource.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const union = tables.map(({ table_name }) => `SELECT '${table_name}' AS t, count(*)::int AS n FROM "${table_name}"`).join(' UNION ALL ');
  const rows: { t: string; n: number }[] = await running.api.dataSource.query(union);
  return Object.fromEntries(rows.map(({ t, n }) => [t, n]));
}

async function unavailableDecisions(): Promise<number> {
  const text = (await request(server()).get('/metrics').expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith('authorization_decisions_total{') && l.includes('outcome="unavailable"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

beforeAll(async () => {
  running = await startProtectedApi();
  const { projectId, scenarioId } = await activatedProject(running.api, ORG);
  const draft = (await post('/api/v2/split-projects', newProject()).expect(201)).body;
  const toDiscard = (await post('/api/v2/split-projects', newProject()).expect(201)).body;
  const posted = actuals('2026-01');
  const challenge = await post(`/api/v2/split-projects/${projectId}/settlement-runs`, posted).expect(428);
  const run = await post(`/api/v2/split-projects/${projectId}/settlement-runs`, {
    ...posted,
    confirmationToken: challenge.body.confirmationToken,
  }).expect(201);
  fixture = {
    projectId,
    scenarioId,
    draftProjectId: draft.project.id,
    draftScenarioId: draft.scenario.id,
    settlementRunId: run.body.id,
    discardedProjectId: toDiscard.project.id,
  };
});
afterAll(async () => {
  await running?.close();
});

// The operations are known only once the app is built; jest needs the table before. So the table is the
// recipes, and the first test holds it to the app's own route table.
const OPERATIONS = Object.keys(RECIPES);
const CELLS = OPERATIONS.flatMap((operation) => FAULT_MODES.map((fault) => [operation, fault] as [string, FaultMode]));
let unavailableBefore = 0;

describe('the authorization fault matrix of standards-api', () => {
  it('has a recipe for every protected operation of the OpenAPI document, and none for a route that is not one', async () => {
    const operations = protectedOperations();
    expect(operations.length).toBeGreaterThanOrEqual(16);
    expect([...operations].sort()).toEqual([...OPERATIONS].sort());
    unavailableBefore = await unavailableDecisions();
  });

  it.each(CELLS)('%s refuses with 503 authorization_unavailable and writes nothing when identity answers %s', async (operation, fault) => {
    const recipe = RECIPES[operation]!;
    const before = await rowCounts();
    const counted = await unavailableDecisions();
    await running.identity.switchTo(fault);
    try {
      const response = await recipe.send(fixture);
      expect({ operation, fault, status: response.status, code: response.body.code }).toEqual({
        operation,
        fault,
        status: 503,
        code: 'authorization_unavailable',
      });
      expect(await rowCounts()).toEqual(before);
      expect((await unavailableDecisions()) - counted).toBe(1);
    } finally {
      await running.identity.switchTo('decide');
    }
    const recovered = await recipe.send(fixture);
    expect({ operation, status: recovered.status }).toEqual({ operation, status: recipe.allowed });
  });

  it('counted exactly one outcome="unavailable" decision per cell', async () => {
    expect((await unavailableDecisions()) - unavailableBefore).toBe(CELLS.length);
  });
});
