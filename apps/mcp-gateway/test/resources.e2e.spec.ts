import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError, Resource } from '@modelcontextprotocol/sdk/types.js';
import { sampleScenario } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';

let platform: Platform;
let gateway: RunningGateway;
let agent: { secret: string; organizationId: string };
let anonymous: Client;
let keyed: Client;
let projectUri: string;

async function readJson(client: Client, uri: string): Promise<Record<string, unknown>> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toEqual([{ uri, mimeType: 'application/json', text: expect.any(String) }]);
  return JSON.parse((contents[0] as { text: string }).text) as Record<string, unknown>;
}

async function readError(client: Client, uri: string): Promise<{ code: number; message: string }> {
  const error = (await client.readResource({ uri }).then(
    () => null,
    (e: unknown) => e,
  )) as McpError | null;
  if (!error) throw new Error(`${uri} was readable`);
  return { code: error.code, message: error.message };
}

beforeAll(async () => {
  platform = await startPlatform();
  gateway = await startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
  });
  agent = await platform.newAppKey();
  anonymous = await connectClient(gateway.mcpUrl);
  keyed = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${agent.secret}` });
  const draft = await keyed.callTool({
    name: 'draft_split_project',
    arguments: {
      name: 'Resource test',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    },
  });
  projectUri = (draft.structuredContent as { resourceUri: string }).resourceUri;
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await anonymous?.close();
  await keyed?.close();
  await gateway?.close();
  await platform?.stop();
});

describe('registry resources (public)', () => {
  it('lists the nine templates with variables under stdreg://, and the glossary pages beside them', async () => {
    const { resourceTemplates } = await anonymous.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'stdreg://glossary-page/{cursor}',
      'stdreg://standards/{sectionId}',
      'stdreg://taskspec/{taskCode}',
      'stdreg://roles/{role}',
      'stdreg://policy/{policyId}',
      'stdreg://split-templates/{version}',
      'stdreg://organizations/{id}',
      'stdreg://split-projects/{id}',
      'stdreg://settlement-runs/{id}',
      'stdreg://equity-ledgers/{legalEntityId}',
    ]);
    for (const template of resourceTemplates) expect(template.mimeType).toBe('application/json');
  });

  it('lists the three singletons first, so a client that reads one page has them all', async () => {
    const first = await anonymous.listResources({});
    expect(first.nextCursor).toBeDefined();
    expect(first.resources.slice(0, 3).map((resource) => resource.uri)).toEqual([
      'stdreg://manifest/current',
      'stdreg://glossary/current',
      'stdreg://brand/current',
    ]);
  });

  it('lists every registry resource over pages, as many as the manifest counts, and reads each one in both languages', async () => {
    const listed: Resource[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await anonymous.listResources(cursor ? { cursor } : {});
      listed.push(...page.resources);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    const manifest = await readJson(anonymous, 'stdreg://manifest/current');
    const counts = manifest['counts'] as Record<string, number>;
    const kinds = listed.map((r) => new URL(r.uri).host);
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    expect([count('manifest'), count('glossary'), count('brand'), count('glossary-page')]).toEqual([1, 1, 1, 1]);
    expect([count('standards'), count('taskspec'), count('roles'), count('policy'), count('split-templates')]).toEqual([
      counts['standards'],
      counts['tasks'],
      counts['roles'],
      counts['policies'],
      counts['splitTemplates'],
    ]);
    expect(new Set(listed.map((r) => r.uri)).size).toBe(listed.length);
    for (const resource of listed) {
      const value = await readJson(anonymous, resource.uri);
      expect(JSON.stringify(value)).toMatch(/"zh-Hans":"[^"]*\p{Script=Han}/u);
    }
  });

  it('reads the glossary, a standards block with its source and an older policy-free template', async () => {
    const glossary = await readJson(anonymous, 'stdreg://glossary/current');
    expect((glossary['terms'] as unknown[]).length).toBe(
      ((await readJson(anonymous, 'stdreg://manifest/current'))['counts'] as { terms: number }).terms,
    );
    expect(await readJson(anonymous, 'stdreg://standards/RUL-3')).toMatchObject({
      sectionId: 'RUL-3',
      version: '2.0',
      citation: 'RUL-3@2.0',
      source: { sha256: expect.any(String) },
    });
    expect(await readJson(anonymous, 'stdreg://split-templates/1.0')).toMatchObject({ version: '1.0', status: 'superseded' });
  });

  it('reads the glossary in pages of at most 100 terms, each naming the next, together the glossary in its order', async () => {
    const glossary = (await readJson(anonymous, 'stdreg://glossary/current'))['terms'] as Array<{ termId: string }>;
    const termIds: string[] = [];
    let uri: string | null = 'stdreg://glossary-page/first';
    let pages = 0;
    while (uri !== null) {
      const page = await readJson(anonymous, uri);
      const terms = page['terms'] as Array<{ termId: string }>;
      expect(terms.length).toBeLessThanOrEqual(100);
      termIds.push(...terms.map((term) => term.termId));
      uri = page['nextPage'] as string | null;
      pages++;
    }
    expect(pages).toBe(Math.ceil(glossary.length / 100));
    expect(termIds).toEqual(glossary.map((term) => term.termId));
    expect((await readError(anonymous, 'stdreg://glossary-page/bm90LWEtY3Vyc29y')).code).toBe(-32002);
  });

  it('refuses an invalid list cursor with -32602', async () => {
    const error = (await anonymous.listResources({ cursor: 'bm90LWEtbnVtYmVy' }).catch((e: unknown) => e)) as McpError;
    expect(error.code).toBe(-32602);
  });

  it('refuses any cursor on resources/templates/list with -32602: the templates come in one page, so no cursor is one it gave', async () => {
    for (const cursor of ['bm90LWEtbnVtYmVy', 'MQ', '']) {
      const error = (await anonymous.listResourceTemplates({ cursor }).catch((e: unknown) => e)) as McpError;
      expect({ cursor, code: error.code }).toEqual({ cursor, code: -32602 });
    }
    expect((await anonymous.listResourceTemplates()).nextCursor).toBeUndefined();
  });

  it('refuses a cursor, even one resources/list gave, on the single-page lists of templates and tools (-32602)', async () => {
    const { nextCursor } = await anonymous.listResources({});
    for (const cursor of [nextCursor!, 'bm90LWEtbnVtYmVy']) {
      const templates = (await anonymous.listResourceTemplates({ cursor }).catch((e: unknown) => e)) as McpError;
      const tools = (await anonymous.listTools({ cursor }).catch((e: unknown) => e)) as McpError;
      expect({ templates: templates.code, tools: tools.code }).toEqual({ templates: -32602, tools: -32602 });
    }
    expect((await anonymous.listResourceTemplates({})).resourceTemplates.length).toBeGreaterThan(0);
  });

  it('answers a list or a read while standards-api is away as the upstream failure (-32603, upstream_failed), not a bad request', async () => {
    const stranded = await startGateway({
      STANDARDS_API_URL: 'http://127.0.0.1:9',
      IDENTITY_URL: platform.identityUrl,
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    });
    const client = await connectClient(stranded.mcpUrl);
    const failure = (error: unknown) => ({ code: (error as McpError).code, data: (error as McpError).data });
    const upstreamFailed = { code: -32603, data: expect.objectContaining({ 'stdreg.dev/refusal': { code: 'upstream_failed' } }) };
    try {
      expect(failure(await client.listResources({}).catch((e: unknown) => e))).toEqual(upstreamFailed);
      expect(failure(await client.readResource({ uri: 'stdreg://roles/investor' }).catch((e: unknown) => e))).toEqual(upstreamFailed);
      // A cursor it did not give is still the client's mistake.
      expect(failure(await client.listResources({ cursor: 'bm90LWEtbnVtYmVy' }).catch((e: unknown) => e)).code).toBe(-32602);
    } finally {
      await client.close();
      await stranded.close();
    }
  });
});

describe('completion of template variables', () => {
  const complete = async (uri: string, name: string, value: string) =>
    (await anonymous.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } })).completion;

  it("completes section ids, task codes, roles, policy ids, template versions and the glossary's first page by prefix", async () => {
    expect((await complete('stdreg://standards/{sectionId}', 'sectionId', 'rul')).values).toEqual([
      'RUL-1',
      'RUL-2',
      'RUL-3',
      'RUL-4',
      'RUL-5',
      'RUL-6',
    ]);
    expect((await complete('stdreg://taskspec/{taskCode}', 'taskCode', 'TSK-02')).values).toEqual([
      'TSK-020',
      'TSK-021',
      'TSK-022',
      'TSK-023',
      'TSK-024',
      'TSK-025',
    ]);
    expect((await complete('stdreg://roles/{role}', 'role', 'settle')).values).toEqual(['settlement-approver']);
    expect((await complete('stdreg://policy/{policyId}', 'policyId', 'a')).values).toEqual(['acceptable-use', 'agent-use']);
    expect(await complete('stdreg://split-templates/{version}', 'version', '')).toEqual({
      values: ['1.0', '2.0'],
      total: 2,
      hasMore: false,
    });
    expect(await complete('stdreg://glossary-page/{cursor}', 'cursor', '')).toEqual({ values: ['first'], total: 1, hasMore: false });
  });

  it('completes nothing for organization-scoped ids, unknown templates or arguments', async () => {
    for (const [uri, name] of [
      ['stdreg://organizations/{id}', 'id'],
      ['stdreg://split-projects/{id}', 'id'],
      ['stdreg://settlement-runs/{id}', 'id'],
      ['stdreg://equity-ledgers/{legalEntityId}', 'legalEntityId'],
      ['stdreg://standards/{sectionId}', 'taskCode'],
      ['stdreg://manifest/current', 'x'],
    ] as const) {
      expect(await complete(uri, name, '')).toEqual({ values: [], total: 0, hasMore: false });
    }
  });

  it('refuses completion of a prompt (the gateway has none) or of a template it does not serve with -32602', async () => {
    const refs = [
      { type: 'ref/prompt', name: 'draft_split_project' },
      { type: 'ref/resource', uri: 'stdreg://nothing/{x}' },
      { type: 'ref/resource', uri: 'stdreg://standards/{id}' },
      { type: 'ref/resource', uri: 'https://example.com/{x}' },
    ] as const;
    for (const ref of refs) {
      const error = (await anonymous.complete({ ref, argument: { name: 'x', value: '' } }).catch((e: unknown) => e)) as McpError;
      expect({ ref, code: error.code }).toEqual({ ref, code: -32602 });
    }
  });
});

describe('organization resources (a key allowed in the organization)', () => {
  it("reads the key's own organization, a split project, an equity ledger; a missing settlement run is -32002", async () => {
    expect(await readJson(keyed, `stdreg://organizations/${agent.organizationId}`)).toMatchObject({
      id: agent.organizationId,
      name: expect.stringMatching(/^Org /),
    });
    expect(await readJson(keyed, projectUri)).toMatchObject({ organizationId: agent.organizationId, name: 'Resource test' });
    expect(await readJson(keyed, 'stdreg://equity-ledgers/LEI-ALICE-0002')).toMatchObject({
      legalEntityId: 'LEI-ALICE-0002',
      entries: [],
      balances: [],
    });
    expect((await readError(keyed, 'stdreg://settlement-runs/01900000-0000-7000-8000-000000000000')).code).toBe(-32002);
    expect((await readError(keyed, 'stdreg://split-projects/not-a-uuid')).code).toBe(-32002);
  });

  it('answers a split project discarded at the standards API as not found (-32002)', async () => {
    const draft = await keyed.callTool({
      name: 'draft_split_project',
      arguments: { name: 'To discard', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } },
    });
    const { project, resourceUri } = draft.structuredContent as { project: { id: string }; resourceUri: string };
    const projectId = project.id;
    expect(await readJson(keyed, resourceUri)).toMatchObject({ id: projectId, name: 'To discard' });
    // The gateway has no discard tool: the key that drafted it discards it at the standards API.
    const discarded = await fetch(`${platform.standardsApiUrl}/api/v2/split-projects/${projectId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${agent.secret}`, 'x-organization-id': agent.organizationId },
    });
    expect(discarded.status).toBe(200);
    expect(await readError(keyed, resourceUri)).toEqual({ code: -32002, message: expect.any(String) });
  });

  it('answers every organization resource without a credential with HTTP 401, naming the agent scopes and the metadata', async () => {
    for (const uri of [
      `stdreg://organizations/${agent.organizationId}`,
      projectUri,
      'stdreg://equity-ledgers/LEI-ALICE-0002',
      'stdreg://settlement-runs/01900000-0000-7000-8000-000000000000',
    ]) {
      const response = await fetch(gateway.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }),
      });
      expect({ uri, status: response.status }).toEqual({ uri, status: 401 });
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer scope="registry:read projects:read projects:draft", resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
    }
    // The registry stays public.
    expect((await anonymous.readResource({ uri: 'stdreg://manifest/current' })).contents).toHaveLength(1);
  });

  it('denies a key of another organization, and does not show it the project from its own organization', async () => {
    const other = await platform.newAppKey();
    const intruder = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${other.secret}` });
    const naming = await connectClient(gateway.mcpUrl, {
      authorization: `Bearer ${other.secret}`,
      'x-organization-id': agent.organizationId,
    });
    const namingOwn = await connectClient(gateway.mcpUrl, {
      authorization: `Bearer ${other.secret}`,
      'x-organization-id': other.organizationId,
    });
    try {
      expect(await readError(intruder, `stdreg://organizations/${agent.organizationId}`)).toEqual({
        code: -32003,
        message: expect.stringContaining('organization_mismatch'),
      });
      expect(await readError(naming, projectUri)).toEqual({ code: -32003, message: expect.stringContaining('organization_mismatch') });
      expect((await readError(intruder, projectUri)).code).toBe(-32002);
      // Naming its own organization does not let it read another's record: the organization read is the one asked about.
      expect(await readError(namingOwn, `stdreg://organizations/${agent.organizationId}`)).toEqual({
        code: -32003,
        message: expect.stringContaining('organization_mismatch'),
      });
    } finally {
      await intruder.close();
      await naming.close();
      await namingOwn.close();
    }
  });

  it('denies organization resources when identity is unreachable, and still serves the registry', async () => {
    const stranded = await startGateway({
      STANDARDS_API_URL: platform.standardsApiUrl,
      IDENTITY_URL: 'http://127.0.0.1:9',
      IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    });
    const client = await connectClient(stranded.mcpUrl, { authorization: `Bearer ${agent.secret}` });
    try {
      expect(await readError(client, projectUri)).toEqual({
        code: -32003,
        message: expect.stringContaining('Authorization could not be established'),
      });
      expect(await readError(client, `stdreg://organizations/${agent.organizationId}`)).toEqual({
        code: -32003,
        message: expect.stringContaining('Authorization could not be established'),
      });
      expect(await readJson(client, 'stdreg://roles/investor')).toMatchObject({ role: 'investor' });
    } finally {
      await client.close();
      await stranded.close();
    }
  });
});
