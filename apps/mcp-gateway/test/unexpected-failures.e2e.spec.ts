import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';

// A failure in the gateway's own code (here: standards-api answering a list without its items, as a proxy or a
// release of another shape might) reaches the agent as what it is, the gateway's fault, and the log as the error.

let upstream: Server;
let gateway: RunningGateway;
let termsAnswer = '{}';
const logged: string[] = [];
const write = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/api/v2/manifest')) return res.end(JSON.stringify({ digest: 'sha256:one' }));
    if (req.url?.startsWith('/api/v2/terms')) return res.end(termsAnswer);
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gateway = await startGateway({ STANDARDS_API_URL: url, IDENTITY_URL: url });
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
});
afterAll(async () => {
  process.stdout.write = write;
  await gateway?.close();
  await new Promise((resolve) => upstream.close(resolve));
});

it("answers an internal error without the gateway's own error message, and logs that message", async () => {
  const client = await connectClient(gateway.mcpUrl);
  const error = await client.readResource({ uri: 'stdreg://glossary/current' }).then(
    () => null,
    (failure: unknown) => failure,
  );
  await client.close();
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(-32603);
  expect((error as McpError).message).toContain('The gateway failed unexpectedly; nothing was changed.');
  expect((error as McpError).message).not.toContain('iterable');
  const line = logged
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .find((entry) => entry['msg'] === 'an MCP request failed unexpectedly');
  expect(line).toMatchObject({ level: 'error', method: 'resources/read', error: expect.stringContaining('is not iterable') });
});

it('reads the glossary once standards-api answers it properly again (a failed build is not kept for the release)', async () => {
  const client = await connectClient(gateway.mcpUrl);
  termsAnswer = '{}';
  await expect(client.readResource({ uri: 'stdreg://glossary/current' })).rejects.toBeInstanceOf(McpError);
  termsAnswer = JSON.stringify({ items: [{ id: 'term-1' }], nextCursor: null });
  const read = await client.readResource({ uri: 'stdreg://glossary/current' });
  await client.close();
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ terms: [{ id: 'term-1' }] });
});
