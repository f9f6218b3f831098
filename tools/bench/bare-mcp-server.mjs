// Baseline for mcp-gateway.bench.mjs: the MCP SDK's own stateless example as documented
// (examples/server/simpleStatelessStreamableHttp: createMcpExpressApp, a fresh McpServer and
// StreamableHTTPServerTransport per POST /mcp, here with enableJsonResponse: true, both closed when the
// response closes; its console.log dropped), with no authorization and no rate limit. Like bare-server.mjs
// it replays what the real service answered: it registers the gateway's tools with the input schemas the
// gateway's tools/list published, and answers each call with the result captured from the gateway.
// `--tuned` departs from the example the way the gateway does: one JSON-schema validator shared by every
// server, and only an answer cut short is closed.
// Usage: node tools/bench/bare-mcp-server.mjs <fixture.json> <port> [--tuned]
// Fixture: { "tools": [<a tool as tools/list publishes it>], "answers": { "<tool name>": <its captured CallToolResult> } }
import { readFileSync } from 'node:fs';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod/v4';

const [fixturePath, port, mode] = process.argv.slice(2);
const tuned = mode === '--tuned';
const { tools, answers } = JSON.parse(readFileSync(fixturePath, 'utf8'));
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
const sharedValidator = tuned ? new AjvJsonSchemaValidator() : undefined;

const getServer = () => {
  const server = new McpServer(
    { name: 'bare-stateless-streamable-http-server', version: '1.0.0' },
    { capabilities: { logging: {} }, ...(sharedValidator ? { jsonSchemaValidator: sharedValidator } : {}) },
  );
  for (const { name, config, answer } of registrations) server.registerTool(name, config, async () => answer);
  return server;
};

const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const server = getServer();
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
