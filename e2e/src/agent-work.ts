// The agent's chapters: with the partner's App key it reads registry resources and drafts through
// MCP tools, is refused the formal writes, and later reads and has explained the posted settlement.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from './http';
import type { Partner } from './partner-onboarding';
import { walkthroughScenario, type DraftedProject } from './split-project-work';
import type { Story } from './story';

export async function connectAgent(story: Story, partner: Partner): Promise<Client> {
  const client = new Client({ name: 'walkthrough-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(story.platform.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${partner.appKey}` } },
    }),
  );
  return client;
}

function json(result: { contents: { text?: string; mimeType?: string }[] }): Record<string, unknown> {
  const [first] = result.contents;
  if (!first?.text || first.mimeType !== 'application/json')
    throw new Error(`expected one JSON content, got ${JSON.stringify(result.contents).slice(0, 300)}`);
  return JSON.parse(first.text) as Record<string, unknown>;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  return result.structuredContent as Record<string, unknown>;
}

export async function agentDrafts(story: Story, agent: Client, partner: Partner): Promise<{ draftProjectId: string }> {
  const actor = `agent with app key ${partner.appKeyPrefix}`;
  const manifest = json(await agent.readResource({ uri: 'stdreg://manifest/current' }));
  const templates = await agent.listResourceTemplates();
  story.step('agent read the registry manifest', { actor, digest: manifest['digest'], templates: templates.resourceTemplates.length });

  const term = await tool(agent, 'resolve_term', { text: 'revenue share' });
  const validation = await tool(agent, 'validate_split_rule', { content: walkthroughScenario() });
  const draft = await tool(agent, 'draft_split_project', {
    name: 'Agent draft',
    currency: 'EUR',
    templateVersion: '1.0',
    scenario: { name: 'Agent baseline', content: walkthroughScenario() },
  });
  const project = draft['project'] as { id: string; organizationId: string };
  if (project.organizationId !== partner.organizationId) throw new Error('the draft landed in another organization');
  story.step('agent resolved a term, validated the rules and drafted a project through MCP', {
    actor,
    termMatches: Array.isArray(term['matches']) ? term['matches'].length : null,
    rulesValid: validation['valid'],
    draftProjectId: project.id,
  });
  return { draftProjectId: project.id };
}

/** The agent's key is refused activation by standards-api itself, and no tool offers it. */
export async function agentRefusedActivation(story: Story, agent: Client, partner: Partner, project: DraftedProject): Promise<void> {
  const refused = await call<{ code: string }>(
    'POST',
    `${story.platform.standardsApiUrl}/api/v2/split-projects/${project.projectId}/activate`,
    {
      token: partner.appKey,
      organizationId: partner.organizationId,
      body: { scenarioId: project.baselineId },
      expect: 403,
    },
  );
  const tools = await agent.listTools();
  const formal = tools.tools.filter((t) => /activate|rule_version|post_settlement|equity|pay/.test(t.name) && !t.annotations?.readOnlyHint);
  if (formal.length > 0) throw new Error(`tools that reach formal writes: ${formal.map((t) => t.name).join(', ')}`);
  story.step('agent refused activation', {
    actor: `agent with app key ${partner.appKeyPrefix}`,
    code: refused.body.code,
    tools: tools.tools.length,
  });
}

export async function agentReadsSettlement(story: Story, agent: Client, partner: Partner, runId: string, projectId: string): Promise<void> {
  const actor = `agent with app key ${partner.appKeyPrefix}`;
  const run = json(await agent.readResource({ uri: `stdreg://settlement-runs/${runId}` }));
  const explained = await tool(agent, 'explain_settlement', { content: walkthroughScenario(), periodId: '2026-01' });
  const steps = explained['steps'] as { text: { en: string; 'zh-Hans': string } }[];
  if (steps.length === 0 || !steps.every((step) => step.text.en && step.text['zh-Hans']))
    throw new Error('the explanation is not bilingual');
  story.step('agent read the posted settlement and had it explained', { actor, runId: run['id'], projectId, steps: steps.length });
}
