// Baseline for mcp-gateway.bench.mjs: the MCP SDK's own stateless example as documented
// (examples/server/simpleStatelessStreamableHttp: createMcpExpressApp, a fresh McpServer and
// StreamableHTTPServerTransport per POST /mcp, here with enableJsonResponse: true, both closed when the
// response closes; its console.log dropped), with no authorization and no rate limit. Like bare-server.mjs
// it replays what the real service answered: it registers the gateway's tools with the input schemas the
// gateway's tools/list published, and answers each call with the result captured from the gateway.
// `--tuned` departs from the example the way the gateway does: one JSON-schema validator shared by every
// server, and only an answer cut short is closed.
// `--drafts-at=<standards-api URL>` makes draft_split_project draft for real, as the simplest proxy would:
// its arguments POSTed to standards-api's /api/v2/split-projects with the caller's Authorization header
// and the fixture's organization, the created project answered (the baseline for a drafting tool).
// Usage: node tools/bench/bare-mcp-server.mjs <fixture.json> <port> [--tuned] [--drafts-at=<url>]
// Fixture: { "tools": [<a tool as tools/list publishes it>], "answers": { "<tool name>": <its captured CallToolResult> },
//            "organizationId": "<the organization drafts go to>" }
import { readFileSync } from 'node:fs';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod/v4';

const [fixturePath, port, ...modes] = process.argv.slice(2);
const tuned = modes.includes('--tuned');
const draftsAt = modes.find((mode) => mode.startsWith('--drafts-at='))?.slice('--drafts-at='.length);
const { tools, answers, organizationId } = JSON.parse(readFileSync(fixturePath, 'utf8'));
const NOT_CAPTURED = { isError: true, content: [{ type: 'text', text: 'No answer of this tool was captured.' }] };

const registrations = tools.map((tool) => ({
  name: tool.name,
  config: {
    title: tool.title,
    description: tool.description,
    inputSchema: z.fromJSONSchema(tool.inputSchema),
    annotations: tool.annotations,
  },
  answer: answers[tool.name] ?? NOT_CAPTURED,
}));

/** draft_split_project, drafting for real: the arguments POSTed as they came, the created project answered. */
async function draft(args, authorization) {
  const response = await fetch(`${draftsAt}/api/v2/split-projects`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', 'x-organization-id': organizationId },
    body: JSON.stringify(args),
  });
  const body = await response.json();
  if (!response.ok) return { isError: true, content: [{ type: 'text', text: `standards-api answered ${response.status}` }] };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}
const sharedValidator = tuned ? new AjvJsonSchemaValidator() : undefined;

const getServer = (authorization) => {
  const server = new McpServer(
    { name: 'bare-stateless-streamable-http-server', version: '1.0.0' },
    { capabilities: { logging: {} }, ...(sharedValidator ? { jsonSchemaValidator: sharedValidator } : {}) },
  );
  for (const { name, config, answer } of registrations) {
    const handler = draftsAt && name === 'draft_split_project' ? (args) => draft(args, authorization) : async () => answer;
    server.registerTool(name, config, handler);
  }
  return server;
};

const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const server = getServer(req.headers.authorization ?? '');
  try {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on('close', () => {
      if (tuned && res.writableFinished) return;
      transport.close();
      server.close();
    });
  } catch (error) {
    console.error('Error handling MCP request:', error);
    if (!res.headersSent) {
      res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
    }
  }
});
// For the benchmark's readiness poll only.
app.get('/readyz', (_req, res) => res.end('ok'));

const listening = app.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => listening.close(() => process.exit(0)));
