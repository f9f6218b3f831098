// The gateway part of scale.bench.mjs's registry area (issue 21): a built mcp-gateway in front of each
// standards-api (the sample pack's and the generated pack's), an identity for the API key that tools/call
// needs (as mcp-gateway.bench.mjs gets one: the bootstrap platform key makes an organization and an app
// key), every page of resources/list, the completions and the glossary checked against the registry's
// own lists, and the MCP requests measured: `gatewayReads` for scale.bench.mjs's `measure`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, createBenchDatabase, freePort, identityBenchEnv, log, requestJson, startServer, waitForStatus } from './bench-kit.mjs';

const MAIN = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');
const API = '/api/v2';
const PROTOCOL_VERSION = '2025-11-25';
const SINGLETONS = ['stdreg://manifest/current', 'stdreg://glossary/current', 'stdreg://brand/current'];
const FIRST_GLOSSARY_PAGE = 'stdreg://glossary-page/first';
const GLOSSARY_PAGE_SIZE = 100;
const STANDARDS_TEMPLATE = 'stdreg://standards/{sectionId}';
/** The MCP cap on the values of one completion. */
const MAX_COMPLETIONS = 100;
// A sample term whose words the generated terms do not use: standards-api's search finds as much at both sizes.
const SAMPLE_TERM = 'Idempotency key';

/**
 * identity (its own database), an organization and an app key, then one gateway per registry subject
 * (`subjects.sample.port`, `subjects.full.port`), all on the servers' CPU. Resolves with the gateways'
 * ports and pids, and the headers of a keyed MCP request.
 */
export async function startRegistryGateways({ subjects, tempDir }) {
  const serviceToken = randomBytes(32).toString('base64url');
  const identityPort = await freePort();
  const identityDir = path.join(tempDir, 'identity');
  mkdirSync(identityDir, { recursive: true });
  const databaseUrl = await createBenchDatabase(`scale_gateway_identity_${process.pid}`);
  startServer('identity', [MAIN('identity')], identityBenchEnv({ port: identityPort, dataDir: identityDir, databaseUrl, serviceToken }));
  log(`starting identity on port ${identityPort}`);
  await waitForStatus('identity', identityPort, '/readyz', 200);
  const asPlatform = { Authorization: `Bearer ${readFileSync(path.join(identityDir, 'bootstrap-platform-key'), 'utf8').trim()}` };
  const organization = await requestJson(identityPort, 'POST', '/v1/organizations', asPlatform, { name: 'Scale bench' });
  const key = await requestJson(identityPort, 'POST', '/v1/keys', asPlatform, {
    name: 'scale bench',
    class: 'app',
    organizationId: organization.id,
  });
  const gateways = {};
  for (const name of ['sample', 'full']) {
    const port = await freePort();
    const dataDir = path.join(tempDir, `mcp-gateway-${name}`);
    mkdirSync(dataDir, { recursive: true });
    const env = { ...process.env };
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[variable];
    Object.assign(env, {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      MCP_GATEWAY_PORT: String(port),
      IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
      OIDC_ISSUER: `http://127.0.0.1:${identityPort}/oidc`,
      IDENTITY_SERVICE_TOKEN: serviceToken,
      STANDARDS_API_URL: `http://127.0.0.1:${subjects[name].port}`,
      MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1000000',
      MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '1000000',
    });
    const child = startServer(`mcp-gateway (${name})`, [MAIN('mcp-gateway')], env);
    log(`starting mcp-gateway in front of the ${name} standards-api on port ${port}`);
    await waitForStatus(`mcp-gateway (${name})`, port, '/readyz', 200);
    gateways[name] = { port, pid: child.pid };
  }
  const headers = {
    Authorization: `Bearer ${key.secret}`,
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL_VERSION,
  };
  return { gateways, headers };
}

const rpc = (method, params) => ({ jsonrpc: '2.0', id: 1, method, params });

/** One MCP request; resolves with its result, fails on any other answer. */
async function call(port, headers, method, params) {
  const answer = await requestJson(port, 'POST', '/mcp', headers, rpc(method, params));
  if (!answer.result) throw new Error(`${method} answered ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.result;
}

const uri = (kind, id) => `stdreg://${kind}/${encodeURIComponent(id)}`;

/**
 * What the gateway's reads need (the deep page's cursor, the prefixes), each answer checked against the
 * registry's own lists (`registry`: describeRegistry's subject): every page of resources/list, in order
 * (the singletons, then each template's resources in the registry's list order), every resource once;
 * the completions' values, count and cap; the glossary's terms; resolve_term's best match.
 */
export async function describeGateway({ port, headers }, registry) {
  const list = async (path) => (await requestJson(registry.port, 'GET', `${API}${path}`, {})).items;
  const roles = await list('/roles?limit=100');
  const templates = await list('/split-templates?limit=100');
  const expected = [
    ...SINGLETONS,
    FIRST_GLOSSARY_PAGE,
    ...registry.sectionIds.map((id) => uri('standards', id)),
    ...registry.taskCodes.map((code) => uri('taskspec', code)),
    ...roles.map((role) => uri('roles', role.role)),
    ...registry.policyIds.map((id) => uri('policy', id)),
    ...templates.map((template) => uri('split-templates', template.version)),
  ];
  const listed = [];
  let cursor;
  let lastPageCursor;
  do {
    lastPageCursor = cursor;
    const page = await call(port, headers, 'resources/list', cursor ? { cursor } : {});
    listed.push(...page.resources.map((resource) => resource.uri));
    cursor = page.nextCursor;
  } while (cursor);
  if (listed.length !== expected.length || listed.some((listedUri, i) => listedUri !== expected[i])) {
    const at = listed.findIndex((listedUri, i) => listedUri !== expected[i]);
    throw new Error(`resources/list: ${listed.length} resources, ${expected.length} expected; first difference at ${at}: ${listed[at]}`);
  }
  if (lastPageCursor === undefined) throw new Error('resources/list: one page only, no deep page to read');

  const fewPrefix = registry.sectionIds.at(-1);
  const manyPrefix = fewPrefix.slice(0, 1);
  for (const prefix of [fewPrefix, manyPrefix, manyPrefix.toLowerCase()]) {
    const { completion } = await call(port, headers, 'completion/complete', completeParams(prefix));
    // In the registry's list order, as walked (RUL-9 before RUL-10).
    const matching = registry.sectionIds.filter((id) => id.toLowerCase().startsWith(prefix.toLowerCase()));
    const want = { values: matching.slice(0, MAX_COMPLETIONS), total: matching.length, hasMore: matching.length > MAX_COMPLETIONS };
    if (JSON.stringify(completion) !== JSON.stringify(want))
      throw new Error(
        `completion of "${prefix}": ${JSON.stringify(completion).slice(0, 300)}, expected ${JSON.stringify(want).slice(0, 300)}`,
      );
  }

  const read = await call(port, headers, 'resources/read', { uri: 'stdreg://glossary/current' });
  const termIds = JSON.parse(read.contents[0].text).terms.map((term) => term.termId);
  if (termIds.length !== registry.termIds.length || termIds.some((id, i) => id !== registry.termIds[i]))
    throw new Error(`glossary/current: ${termIds.length} terms, not the registry's ${registry.termIds.length} in list order`);

  // The glossary's pages: their URIs from standards-api's own pages of terms (so that none is read through
  // the gateway, whose cache would make the measured reads warm), the first and the last read through it.
  const glossaryPages = [FIRST_GLOSSARY_PAGE];
  for (let cursor = ''; ;) {
    const page = await requestJson(registry.port, 'GET', `${API}/terms?limit=${GLOSSARY_PAGE_SIZE}${cursor}`, {});
    if (page.nextCursor === null) break;
    glossaryPages.push(uri('glossary-page', page.nextCursor));
    cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
  for (const [at, pageUri] of [
    [0, glossaryPages[0]],
    [glossaryPages.length - 1, glossaryPages.at(-1)],
  ]) {
    const page = JSON.parse((await call(port, headers, 'resources/read', { uri: pageUri })).contents[0].text);
    const want = registry.termIds.slice(at * GLOSSARY_PAGE_SIZE, (at + 1) * GLOSSARY_PAGE_SIZE);
    if (
      JSON.stringify(page.terms.map((term) => term.termId)) !== JSON.stringify(want) ||
      (page.nextPage === null) !== (at === glossaryPages.length - 1)
    )
      throw new Error(`${pageUri}: not page ${at + 1} of the registry's terms`);
  }

  const resolved = await call(port, headers, 'tools/call', resolveTermParams);
  if (resolved.isError || resolved.structuredContent.matches[0]?.term.en !== SAMPLE_TERM)
    throw new Error(`resolve_term "${SAMPLE_TERM}": ${JSON.stringify(resolved).slice(0, 300)}`);

  return { port, headers, resources: listed.length, lastPageCursor, fewPrefix, manyPrefix, glossaryPages };
}

const completeParams = (prefix) => ({
  ref: { type: 'ref/resource', uri: STANDARDS_TEMPLATE },
  argument: { name: 'sectionId', value: prefix },
});
const resolveTermParams = { name: 'resolve_term', arguments: { text: SAMPLE_TERM } };

/** A JSON-RPC answer with a result (checked on the first bytes: the glossary's answer is tens of MB). */
function answered(body) {
  const head = body.subarray(0, 64).toString('utf8');
  if (!head.startsWith('{"result":') || (head.startsWith('{"result":{"content"') && body.includes('"isError":true')))
    throw new Error(`the gateway did not answer with a result: ${body.subarray(0, 300).toString('utf8')}`);
}

/** The MCP requests measured, for scale.bench.mjs's `measure` (each subject a gateway from describeGateway). */
export function gatewayReads() {
  const post = (method, params) => ({ method: 'POST', path: () => '/mcp', body: (s, i) => rpc(method, params(s, i)), check: answered });
  return [
    { area: 'gateway', read: '`resources/list`, first page (50)', ...post('resources/list', () => ({})) },
    {
      area: 'gateway',
      read: '`resources/list`, last page (by cursor)',
      ...post('resources/list', (s) => ({ cursor: s.lastPageCursor })),
    },
    {
      area: 'gateway',
      read: '`completion/complete` of `{sectionId}`, a whole id (few matches)',
      ...post('completion/complete', (s) => completeParams(s.fewPrefix)),
    },
    {
      area: 'gateway',
      read: '`completion/complete` of `{sectionId}`, one letter (many matches, 100 answered)',
      ...post('completion/complete', (s) => completeParams(s.manyPrefix)),
    },
    {
      area: 'gateway',
      read: '`resources/read` `stdreg://glossary/current` (every term)',
      ...post('resources/read', () => ({ uri: 'stdreg://glossary/current' })),
    },
    {
      area: 'gateway',
      read: `\`resources/read\` \`${FIRST_GLOSSARY_PAGE}\` (${GLOSSARY_PAGE_SIZE} terms)`,
      ...post('resources/read', () => ({ uri: FIRST_GLOSSARY_PAGE })),
    },
    {
      area: 'gateway',
      read: `\`resources/read\` a glossary page, a different one each request (cold at full size; the sample has a few pages)`,
      ...post('resources/read', (s, i) => ({ uri: s.glossaryPages[1 + (i % (s.glossaryPages.length - 2 || 1))] ?? FIRST_GLOSSARY_PAGE })),
    },
    { area: 'gateway', read: `\`tools/call\` \`resolve_term\` "${SAMPLE_TERM}"`, ...post('tools/call', () => resolveTermParams) },
  ];
}
