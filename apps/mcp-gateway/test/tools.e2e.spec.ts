import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AuthorizationClient } from '@stdreg/authz-client';
import { decisionsAnswered, recordDecisions, type DecisionRecorder } from './support/decision-recorder';
import { brokenScenario, evenSplitScenario, sampleScenario, validToolCalls } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';
import { countRequests } from './support/request-counter';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';

let platform: Platform;
let gateway: RunningGateway;
let agent: { secret: string; organizationId: string };
let client: Client;
let tools: Map<string, Tool>;
const ajv = new Ajv2020({ strict: false, allErrors: true });

async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult> {
  return (await on.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful call: its structuredContent matches the tool's output schema and a text rendering comes with it. */
async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  const validate = ajv.compile(tools.get(name)!.outputSchema!);
  expect({ name, valid: validate(result.structuredContent), errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
  expect(result.content[0]).toEqual({ type: 'text', text: expect.stringMatching(/\S/) });
  return result.structuredContent!;
}

async function refused(name: string, args: Record<string, unknown>, on: Client = client): Promise<string> {
  const result = await call(name, args, on);
  expect({ name, isError: result.isError }).toEqual({ name, isError: true });
  expect(result.structuredContent).toBeUndefined();
  return (result.content[0] as { text: string }).text;
}

beforeAll(async () => {
  platform = await startPlatform();
  gateway = await startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
  });
  agent = await platform.newAppKey();
  client = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${agent.secret}` });
  tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await platform?.stop();
});

describe('registry tools', () => {
  it('resolve_term finds a term by synonym and by Chinese name, and refuses empty text', async () => {
    const bySynonym = await ok('resolve_term', { text: 'BPS' });
    expect(bySynonym['matches']).toEqual(expect.arrayContaining([expect.objectContaining({ termId: 'basis-point', match: 'synonym' })]));
    const byChinese = await ok('resolve_term', { text: '基点' });
    expect((byChinese['matches'] as { termId: string; match: string }[])[0]).toMatchObject({ termId: 'basis-point', match: 'exact' });
    expect(await refused('resolve_term', { text: '' })).toMatch(/text/);
  });

  it('validate_standard_reference says a superseded citation was replaced and a current one is valid', async () => {
    expect(await ok('validate_standard_reference', { reference: 'RUL-3@1.0#2' })).toMatchObject({
      valid: false,
      exists: true,
      status: 'superseded',
      supersededBy: 'RUL-3@2.0',
      currentCitation: 'RUL-3@2.0',
    });
    expect(await ok('validate_standard_reference', { reference: 'RUL-3@2.0#5' })).toMatchObject({
      valid: true,
      status: 'current',
      problems: [],
    });
    expect(await ok('validate_standard_reference', { reference: 'RUL-3@2.0#9' })).toMatchObject({ valid: false, exists: false });
    expect(await ok('validate_standard_reference', { reference: 'ZZZ-9' })).toMatchObject({ valid: false, exists: false });
    expect(await ok('validate_standard_reference', { reference: 'rul 3' })).toMatchObject({ valid: false, sectionId: null });
    expect(await refused('validate_standard_reference', { ref: 'RUL-3' })).toMatch(/reference/);
  });

  it('validate_taskspec checks roles, prerequisites and cited standards against the registry', async () => {
    const task = JSON.parse(
      await client.readResource({ uri: 'stdreg://taskspec/TSK-012' }).then((r) => (r.contents[0] as { text: string }).text),
    );
    expect(await ok('validate_taskspec', { taskSpec: task })).toMatchObject({ valid: true, errors: [] });
    const broken = { ...task, roles: ['wizard'], prerequisites: ['TSK-999'], standards: ['RUL-3@1.0'] };
    const report = await ok('validate_taskspec', { taskSpec: broken });
    expect(report['valid']).toBe(false);
    expect((report['errors'] as { path: string }[]).map((e) => e.path)).toEqual(['/roles/0', '/prerequisites/0', '/standards/0']);
    const shapeless = await ok('validate_taskspec', { taskSpec: { taskCode: 'TASK-1' } });
    expect(shapeless['errors']).toEqual(expect.arrayContaining([{ path: '/taskCode', message: 'must look like TSK-012' }]));
    expect(await refused('validate_taskspec', { taskSpec: 'TSK-012' })).toMatch(/taskSpec/);
  });

  it('compare_standard_versions lists changed and added clauses in both languages', async () => {
    const diff = await ok('compare_standard_versions', { sectionId: 'RUL-3', from: '1.0', to: '2.0' });
    const changes = Object.fromEntries((diff['clauses'] as { clauseId: string; change: string }[]).map((c) => [c.clauseId, c.change]));
    expect(changes).toEqual({ '1': 'unchanged', '2': 'changed', '3': 'unchanged', '4': 'changed', '5': 'added' });
    expect(diff['summary']).toEqual({ en: expect.stringContaining('1 clause(s) added'), 'zh-Hans': expect.stringContaining('新增 1 条') });
    expect(await refused('compare_standard_versions', { sectionId: 'RUL-3', from: '1.0', to: '9.0' })).toMatch(/RUL-3@9\.0 does not exist/);
    expect(await refused('compare_standard_versions', { sectionId: 'RUL-3', from: 'one', to: '2.0' })).toMatch(/from/);
  });

  it('resolve_term finds terms by a misspelling, an everyday phrase and a Chinese synonym, best first', async () => {
    for (const [text, termId] of [
      ['disbursment', 'payout'],
      ['maker-checker', 'separation-of-duties'],
      ['红冲', 'reversal'],
      ['统一社会信用代码', 'legal-entity-identifier'],
    ] as const) {
      const { matches } = (await ok('resolve_term', { text })) as { matches: { termId: string }[] };
      expect({ text, first: matches[0]?.termId }).toEqual({ text, first: termId });
    }
  });

  type Report = {
    draft: boolean;
    notice: string;
    standards: { citation: string; clauses: { clauseId: string; status: string; basis: string; evidence: { sentence: string }[] }[] }[];
  };
  const statusOf = (report: Report, citation: string, clauseId: string) =>
    report.standards.find((s) => s.citation.startsWith(citation))?.clauses.find((c) => c.clauseId === clauseId);

  it('draft_alignment_report says at_risk where the practice states the opposite of a clause, with the sentence as evidence', async () => {
    const practice = 'Our AI agent releases payments to partners automatically every Friday. Nobody signs off on the payment instructions.';
    const report = (await ok('draft_alignment_report', { practice })) as Report;
    expect(report.standards[0]!.citation).toMatch(/^(FIN-2|AGT-1)@/);
    const fin2 = statusOf(report, 'FIN-2@', '2')!;
    expect(fin2.status).toBe('at_risk');
    expect(fin2.evidence.map((e) => e.sentence)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Nobody signs off|releases payments/)]),
    );
    expect(statusOf(report, 'AGT-1@', '2')!.status).toBe('at_risk');
    expect(report.draft).toBe(true);
    expect(report.notice).toMatch(/Draft for a person to review/);
    const result = await call('draft_alignment_report', { practice });
    expect((result.content[0] as { text: string }).text).toMatch(/^Draft for a person to review/);
    expect(tools.get('draft_alignment_report')!.description).toMatch(/^Draft for a person to review/);
  });

  it('draft_alignment_report calls a clause addressed only where the practice states what it requires, never for shared words', async () => {
    const meets = (await ok('draft_alignment_report', {
      practice: '每笔付款指令在放行前都由财务主管审批。A different person approves each settlement run than the one who prepared it.',
    })) as Report;
    expect(statusOf(meets, 'FIN-2@', '2')!.status).toBe('addressed');
    expect(statusOf(meets, 'GOV-2@', '2')!.status).toBe('addressed');
    const sharesWords = (await ok('draft_alignment_report', {
      practice: 'We talk about payment instructions and approvals in our weekly meeting.',
    })) as Report;
    expect(sharesWords.standards.flatMap((s) => s.clauses).filter((c) => c.status === 'addressed')).toEqual([]);
    const violates = (await ok('draft_alignment_report', {
      practice: 'To keep things fast, the same analyst prepares the settlement run and approves it.',
    })) as Report;
    expect(statusOf(violates, 'GOV-2@', '2')!.status).toBe('at_risk');
    expect(await refused('draft_alignment_report', { practice: 'x', maxStandards: 50 })).toMatch(/maxStandards/);
  });

  it('draft_alignment_report says at_risk where a sentence departs from the clause it is about in words the clause does not use', async () => {
    const report = (await ok('draft_alignment_report', { practice: 'The API keys we give partners never expire.' })) as Report;
    const keys = statusOf(report, 'SEC-2@', '3')!;
    expect(keys.status).toBe('at_risk');
    expect(keys.evidence.map((e) => e.sentence)).toContain('The API keys we give partners never expire.');
    const keeps = (await ok('draft_alignment_report', {
      practice: 'What the agent drafts is stored as a draft, labelled as agent-authored, and takes effect only once a person adopts it.',
    })) as Report;
    expect(statusOf(keeps, 'AGT-2@', '1')!.status).not.toBe('at_risk');
  });

  it('draft_alignment_report calls addressed a clause that sets a figure only where the practice states the figure, else cannot tell', async () => {
    const without = (await ok('draft_alignment_report', { practice: 'Role assignments are reviewed every quarter.' })) as Report;
    expect(statusOf(without, 'SEC-1@', '4')).toMatchObject({ status: 'not_addressed', basis: expect.stringContaining('5 working days') });
    const stated = (await ok('draft_alignment_report', {
      practice: 'Role assignments are reviewed every quarter, and unneeded access is removed within 5 working days of the review.',
    })) as Report;
    expect(statusOf(stated, 'SEC-1@', '4')!.status).toBe('addressed');
  });

  it('each free-text tool asks standards-api at most once per call (its manifest apart)', async () => {
    const counter = await countRequests(platform.standardsApiUrl);
    const counted = await startGateway({
      STANDARDS_API_URL: counter.url,
      IDENTITY_URL: platform.identityUrl,
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    });
    const counting = await connectClient(counted.mcpUrl, { authorization: `Bearer ${agent.secret}` });
    try {
      for (const [name, args] of [
        ['draft_alignment_report', { practice: 'Our agent has no named supervisor. 结算批次由同一人编制并审批。' }],
        ['resolve_term', { text: 'four eyes' }],
        ['recommend_role', { description: 'Someone to approve payment instructions' }],
      ] as const) {
        counter.requests.length = 0;
        const result = await call(name, args, counting);
        expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
        expect({ name, requests: counter.requests.filter((r) => !r.includes('/manifest')) }).toEqual({
          name,
          requests: [expect.stringMatching(/^POST \/api\/v2\/search$/)],
        });
      }
    } finally {
      await counting.close();
      await counted.close();
      await counter.close();
    }
  });
});

describe('people tools', () => {
  it('recommend_role ranks the roles a described need matches, with reasons', async () => {
    const { roles } = (await ok('recommend_role', { description: 'Someone to approve settlement runs before they are posted' })) as {
      roles: { role: string; reasons: string[] }[];
    };
    expect(roles[0]!.role).toBe('settlement-approver');
    expect(roles[0]!.reasons.length).toBeGreaterThan(0);
    expect(await refused('recommend_role', {})).toMatch(/description/);
  });

  it('draft_onboarding_profile lists tasks with prerequisites first, standards and policies', async () => {
    const profile = await ok('draft_onboarding_profile', { role: 'scenario-modeller' });
    const tasks = (profile['tasks'] as { taskCode: string }[]).map((t) => t.taskCode);
    expect(tasks).toEqual(['TSK-009', 'TSK-010', 'TSK-011', 'TSK-012', 'TSK-016']);
    expect(profile['standards']).toEqual(expect.arrayContaining([expect.stringMatching(/^[A-Z]+-[0-9]+@[0-9.]+$/)]));
    expect((profile['policies'] as unknown[]).length).toBe(6);
    expect(await refused('draft_onboarding_profile', { role: 'wizard' })).toMatch(/Unknown role wizard/);
  });

  it('assess_readiness scores a profile against a task and names the gaps', async () => {
    const readiness = await ok('assess_readiness', { taskCode: 'TSK-003', completedTasks: ['TSK-001'] });
    expect(readiness['gaps']).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'task', id: 'TSK-002', action: 'complete task TSK-002' })]),
    );
    expect(readiness['met']).toEqual(expect.arrayContaining([{ kind: 'task', id: 'TSK-001' }]));
    expect(readiness['score']).toBeGreaterThan(0);
    expect(readiness['score']).toBeLessThan(100);
    expect(await refused('assess_readiness', { role: 'project-owner', taskCode: 'TSK-003' })).toMatch(/exactly one of role or taskCode/);
  });

  it('propose_task_path orders the prerequisites of a goal and skips what is done', async () => {
    const path = await ok('propose_task_path', { goal: 'TSK-009', completedTasks: ['TSK-001', 'TSK-002'] });
    expect((path['path'] as { taskCode: string }[]).map((p) => p.taskCode)).toEqual([
      'TSK-005',
      'TSK-006',
      'TSK-007',
      'TSK-008',
      'TSK-009',
    ]);
    expect(path['alreadyDone']).toEqual(['TSK-001', 'TSK-002']);
    expect(await refused('propose_task_path', { goal: 'TSK-999' })).toMatch(/Unknown task TSK-999/);
  });

  it('draft_invitation drafts both languages and sends nothing', async () => {
    const invitation = await ok('draft_invitation', {
      email: 'li@example.com',
      role: 'investor',
      organizationName: 'Studio Nine',
      language: 'zh-Hans',
    });
    expect(invitation).toMatchObject({ sent: false, payload: { email: 'li@example.com', role: 'investor', language: 'zh-Hans' } });
    expect(invitation['subject']).toEqual({
      en: expect.stringContaining('Studio Nine'),
      'zh-Hans': expect.stringContaining('Studio Nine'),
    });
    expect(await refused('draft_invitation', { email: 'not-an-email', role: 'investor', organizationName: 'S' })).toMatch(/email/);
  });
});

describe('split tools', () => {
  it('validate_split_rule locates errors and gives the rules digest of valid rules', async () => {
    expect(await ok('validate_split_rule', { content: sampleScenario() })).toMatchObject({
      valid: true,
      rulesDigest: expect.stringMatching(/^sha256:/),
    });
    const broken = await ok('validate_split_rule', { content: brokenScenario() });
    expect(broken).toMatchObject({ valid: false, rulesDigest: null });
    expect(broken['errors']).toEqual([expect.objectContaining({ path: '/tiers/1/shares', code: 'shares_not_10000' })]);
    expect(await refused('validate_split_rule', { content: [] })).toMatch(/content/);
  });

  it('calculate_draft_settlement pays exact amounts with largest-remainder rounding and never posts', async () => {
    const { posted, settlement } = (await ok('calculate_draft_settlement', { content: sampleScenario() })) as {
      posted: boolean;
      settlement: { distributable: string; participants: { participantId: string; total: string }[] };
    };
    expect(posted).toBe(false);
    expect(settlement.distributable).toBe('19499.99');
    expect(settlement.participants).toEqual([
      { participantId: 'platform', total: '1000.00' },
      { participantId: 'alice', total: '11099.99' },
      { participantId: 'bob', total: '7400.00' },
    ]);
    const period = await ok('calculate_draft_settlement', { content: sampleScenario(), periodId: '2026-01' });
    expect(period['settlement']).toMatchObject({ kind: 'period', periodId: '2026-01', distributable: '10000.00' });
    expect(await refused('calculate_draft_settlement', { content: sampleScenario(), periodId: '2027-01' })).toMatch(/No period 2027-01/);
    expect(await refused('calculate_draft_settlement', { content: brokenScenario() })).toMatch(/scenario\/tiers\/1\/shares/);
  });

  it('explain_settlement explains each step in both languages', async () => {
    const { steps } = (await ok('explain_settlement', { content: sampleScenario(), periodId: '2026-02' })) as {
      steps: { kind: string; text: { en: string; 'zh-Hans': string } }[];
    };
    expect(steps.map((s) => s.kind)).toEqual(['distributable', 'fixed_payment', 'percentage_split', 'totals']);
    for (const step of steps) expect(step.text['zh-Hans']).toMatch(/\p{Script=Han}/u);
    expect(await refused('explain_settlement', { content: sampleScenario(), periodId: '' })).toMatch(/periodId/);
  });

  it('compare_rule_versions reports share changes', async () => {
    const diff = await ok('compare_rule_versions', { before: sampleScenario(), after: evenSplitScenario() });
    expect(diff['identical']).toBe(false);
    expect(
      (diff['changes'] as { kind: string; facts: Record<string, unknown> }[]).map((c) => [
        c.kind,
        c.facts['participantId'],
        c.facts['after'],
      ]),
    ).toEqual([
      ['share_changed', 'alice', 5000],
      ['share_changed', 'bob', 5000],
    ]);
    expect(await ok('compare_rule_versions', { before: sampleScenario(), after: sampleScenario() })).toMatchObject({
      identical: true,
      changes: [],
    });
    expect(await refused('compare_rule_versions', { before: sampleScenario(), after: brokenScenario() })).toMatch(
      /after\/tiers\/1\/shares/,
    );
  });

  it('simulate_operating_plan projects grown months and allocates each one', async () => {
    const plan = await ok('simulate_operating_plan', {
      content: sampleScenario(),
      projection: { startMonth: '2026-11', months: 3, revenue: '10000.00', costs: '1000.00', revenueGrowthBasisPoints: 1000 },
    });
    expect((plan['periods'] as { periodId: string; revenue: string }[]).map((p) => [p.periodId, p.revenue])).toEqual([
      ['2026-11', '10000.00'],
      ['2026-12', '11000.00'],
      ['2027-01', '12100.00'],
    ]);
    expect(plan['totals']).toMatchObject({ revenue: '33100.00', costs: '3000.00', distributable: '30100.00' });
    expect(
      await refused('simulate_operating_plan', {
        content: sampleScenario(),
        projection: { startMonth: '2026-13', months: 1, revenue: '1', costs: '0' },
      }),
    ).toMatch(/startMonth/);
  });

  it("draft_split_project creates a draft in the key's organization that the resource then shows", async () => {
    const draft = await ok('draft_split_project', {
      name: 'Studio share 2026',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    });
    expect(draft).toMatchObject({
      status: 'draft',
      project: { organizationId: agent.organizationId, name: 'Studio share 2026' },
      scenario: { revision: 1 },
    });
    const read = await client.readResource({ uri: draft['resourceUri'] as string });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      id: (draft['project'] as { id: string }).id,
      organizationId: agent.organizationId,
    });
    expect(
      await refused('draft_split_project', {
        name: 'X',
        currency: 'USD',
        templateVersion: '2.0',
        scenario: { name: 'B', content: sampleScenario() },
      }),
    ).toMatch(/scenario is in EUR but the project in USD/);
    expect(
      await refused('draft_split_project', {
        name: 'X',
        currency: 'EUR',
        templateVersion: '9.9',
        scenario: { name: 'B', content: sampleScenario() },
      }),
    ).toMatch(/No split template 9\.9/);
  });

  it('draft_split_project says, in structuredContent and in both languages of its text, when a keyed retry got the earlier draft back', async () => {
    const keyed = {
      name: 'Keyed draft',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
      idempotencyKey: 'agent-replay-1',
    };
    const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
    const first = await call('draft_split_project', keyed);
    expect(first.structuredContent).toMatchObject({ replayed: false });
    expect(textOf(first)).toMatch(/^Draft split project "Keyed draft" created .*\n已起草分账项目「Keyed draft」/);
    const again = await call('draft_split_project', keyed);
    expect(again.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
    expect(textOf(again)).toMatch(/^Replayed, nothing created now: .*"Keyed draft" \(stdreg:\/\/split-projects\/.*\n重放，本次未新建：/);
    const otherKey = await ok('draft_split_project', { ...keyed, idempotencyKey: 'agent-replay-2' });
    expect(otherKey['replayed']).toBe(false);
    expect((otherKey['project'] as { id: string }).id).not.toBe((first.structuredContent!['project'] as { id: string }).id);
    const unkeyed = { ...keyed, idempotencyKey: undefined };
    for (let i = 0; i < 2; i += 1) expect((await ok('draft_split_project', unkeyed))['replayed']).toBe(false);
  });
});

describe('clients with the SDK defaults', () => {
  it("get every tool result validated by the SDK's own validator against the 2020-12 output schemas", async () => {
    const plain = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${agent.secret}` }, true);
    try {
      await plain.listTools();
      for (const [name, args] of Object.entries(validToolCalls())) {
        const result = await plain.callTool({ name, arguments: args });
        expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      }
    } finally {
      await plain.close();
    }
  });
});

describe('tool authorization (fail closed)', () => {
  const validCalls = Object.entries(validToolCalls());

  it("has a valid call of every listed tool, and each one succeeds with the agent's key", async () => {
    expect(validCalls.map(([name]) => name).sort()).toEqual([...tools.keys()].sort());
    for (const [name, args] of validCalls) await ok(name, args);
  });

  it('refuses every tool call with a key identity does not know', async () => {
    const unknown = await connectClient(gateway.mcpUrl, { authorization: 'Bearer stdreg_app_unknown_key' });
    for (const [name, args] of validCalls) expect(await refused(name, args, unknown)).toMatch(/^Refused: /);
    await unknown.close();
  });

  it('answers every tool call without a credential with HTTP 401 and where to get one, before any tool runs', async () => {
    for (const [name, args] of validCalls) {
      const response = await fetch(gateway.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      // The gateway's configured resource URL (MCP_RESOURCE_URL, its default here), not the address the test reached.
      expect(challenge).toContain('resource_metadata="http://127.0.0.1:3002/.well-known/oauth-protected-resource/mcp"');
      // Every agent scope, whatever the tool: one sign-in serves the agent's session.
      expect(challenge).toContain('scope="registry:read projects:read projects:draft"');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it("refuses a draft in another organization than the key's", async () => {
    const other = await platform.newAppKey();
    const intruder = await connectClient(gateway.mcpUrl, {
      authorization: `Bearer ${other.secret}`,
      'x-organization-id': agent.organizationId,
    });
    expect(await refused('draft_split_project', validToolCalls()['draft_split_project']!, intruder)).toMatch(
      /Refused: .*organization_mismatch/,
    );
    await intruder.close();
  });

  it('refuses a draft by a platform key that names no organization', async () => {
    const operator = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${platform.platformKey}` });
    expect(await refused('draft_split_project', validToolCalls()['draft_split_project']!, operator)).toMatch(/X-Organization-Id/);
    await operator.close();
  });

  it('refuses every tool call when identity is unreachable or does not accept the gateway', async () => {
    const deadIdentity = await startGateway({
      STANDARDS_API_URL: platform.standardsApiUrl,
      IDENTITY_URL: 'http://127.0.0.1:9',
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    });
    const unconfigured = await startGateway({ STANDARDS_API_URL: platform.standardsApiUrl, IDENTITY_URL: platform.identityUrl });
    try {
      for (const target of [deadIdentity, unconfigured]) {
        const stranded = await connectClient(target.mcpUrl, { authorization: `Bearer ${agent.secret}` });
        for (const [name, args] of validCalls)
          expect(await refused(name, args, stranded)).toMatch(/Authorization could not be established/);
        await stranded.close();
      }
    } finally {
      await deadIdentity.close();
      await unconfigured.close();
    }
  });
});

describe('identity asks per tool call, with the read cache off', () => {
  let recorder: DecisionRecorder;
  let counted: RunningGateway;

  beforeAll(async () => {
    recorder = await recordDecisions(platform.identityUrl);
    counted = await startGateway({
      STANDARDS_API_URL: platform.standardsApiUrl,
      IDENTITY_URL: recorder.url,
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
      // Every tool below is called with the same key: with the read cache on, read-only tools would ask only once.
      AUTHZ_READ_CACHE_MS: '0',
    });
  });
  afterAll(async () => {
    await counted?.close();
    await recorder?.close();
  });

  /** The actions the gateway asked identity for during one successful call, and how many decisions identity answered in all. */
  async function asksOf(name: string, args: Record<string, unknown>, headers: Record<string, string>) {
    const on = await connectClient(counted.mcpUrl, { authorization: `Bearer ${agent.secret}`, ...headers });
    try {
      const answeredBefore = await decisionsAnswered(platform.identityUrl);
      recorder.actions.length = 0;
      const result = await call(name, args, on);
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
      return { name, gateway: [...recorder.actions], identityAnswered: (await decisionsAnswered(platform.identityUrl)) - answeredBefore };
    } finally {
      await on.close();
    }
  }

  it('asks twice for a draft, organization named or not: tool:call by the gateway, split-project:draft by standards-api', async () => {
    for (const headers of [{}, { 'x-organization-id': agent.organizationId }] as Record<string, string>[]) {
      expect(await asksOf('draft_split_project', validToolCalls()['draft_split_project']!, headers)).toEqual({
        name: 'draft_split_project',
        gateway: ['tool:call'],
        identityAnswered: 2,
      });
    }
  });

  it('asks once, tool:call, for every other tool', async () => {
    for (const [name, args] of Object.entries(validToolCalls()).filter(([name]) => name !== 'draft_split_project')) {
      expect(await asksOf(name, args, {})).toEqual({ name, gateway: ['tool:call'], identityAnswered: 1 });
    }
  });
});

describe('read-only tool calls reuse an allow for AUTHZ_READ_CACHE_MS, drafting tools ask every time', () => {
  const windowMs = 1000;
  let recorder: DecisionRecorder;
  let cached: RunningGateway;
  const readOnlyCall = () => ['validate_standard_reference', { reference: 'RUL-3@2.0#5' }] as const;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    recorder = await recordDecisions(platform.identityUrl);
    cached = await startGateway({
      STANDARDS_API_URL: platform.standardsApiUrl,
      IDENTITY_URL: recorder.url,
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
      AUTHZ_READ_CACHE_MS: String(windowMs),
    });
  });
  afterAll(async () => {
    await cached?.close();
    await recorder?.close();
  });

  /** A client of the cached gateway with a key of its own, so no other test's allow is reused. */
  async function freshAgent() {
    const key = await platform.newAppKey();
    const on = await connectClient(cached.mcpUrl, { authorization: `Bearer ${key.secret}` });
    recorder.actions.length = 0;
    return { key, on };
  }

  it('asks once for a read-only tool called twice within the window, and again after it', async () => {
    const { on } = await freshAgent();
    try {
      for (let calls = 0; calls < 2; calls++) expect((await call(...readOnlyCall(), on)).isError ?? false).toBe(false);
      expect(recorder.actions).toEqual(['tool:call']);
      await pause(windowMs + 100);
      expect((await call(...readOnlyCall(), on)).isError ?? false).toBe(false);
      expect(recorder.actions).toEqual(['tool:call', 'tool:call']);
    } finally {
      await on.close();
    }
  });

  it('asks for every call of a drafting tool, even within the window of a read-only allow', async () => {
    const { on } = await freshAgent();
    try {
      expect((await call(...readOnlyCall(), on)).isError ?? false).toBe(false);
      for (let calls = 0; calls < 2; calls++)
        expect((await call('draft_split_project', validToolCalls()['draft_split_project']!, on)).isError ?? false).toBe(false);
      expect(recorder.actions).toEqual(['tool:call', 'tool:call', 'tool:call']);
    } finally {
      await on.close();
    }
  });

  it('refuses a revoked key as soon as the revoke has answered, within the window of its allow', async () => {
    // The gateway follows identity's subject changes: reused allows only while that stream is open.
    const client = cached.app.get(AuthorizationClient);
    for (let attempt = 0; attempt < 100 && !client.reusesAllows; attempt++) await pause(50);
    expect(client.reusesAllows).toBe(true);
    // A second key's allow, asked first and not touched by the revoke: still reused after the refusal, it shows
    // the revoked key's allow (asked after it) was inside its window too, so only the drop refused it.
    let withinTheWindow = 0;
    for (let round = 0; round < 5; round++) {
      const control = await freshAgent();
      const { key, on } = await freshAgent();
      try {
        expect((await call(...readOnlyCall(), control.on)).isError ?? false).toBe(false);
        for (let calls = 0; calls < 2; calls++) expect((await call(...readOnlyCall(), on)).isError ?? false).toBe(false);
        expect(recorder.actions).toEqual(['tool:call', 'tool:call']);
        await platform.revokeKey(key.keyId);
        expect(await refused(...readOnlyCall(), on)).toMatch(/^Refused: Not allowed \(tool:call\): invalid_credential/);
        expect(recorder.actions).toEqual(['tool:call', 'tool:call', 'tool:call']);
        expect((await call(...readOnlyCall(), control.on)).isError ?? false).toBe(false);
        if (recorder.actions.length === 3) withinTheWindow++;
      } finally {
        await on.close();
        await control.on.close();
      }
    }
    expect(withinTheWindow).toBeGreaterThan(0);
  });

  it('refuses a revoked key once the window is over', async () => {
    const { key, on } = await freshAgent();
    try {
      expect((await call(...readOnlyCall(), on)).isError ?? false).toBe(false);
      await platform.revokeKey(key.keyId);
      await pause(windowMs + 100);
      expect(await refused(...readOnlyCall(), on)).toMatch(/^Refused: Not allowed \(tool:call\): invalid_credential/);
      expect(await refused('draft_split_project', validToolCalls()['draft_split_project']!, on)).toMatch(/^Refused: /);
    } finally {
      await on.close();
    }
  });
});
