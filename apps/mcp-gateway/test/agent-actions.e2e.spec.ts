// AGT-1 at the gateway (issue 17): every tool call and organization resource read of an agent is one audit
// event on the log (the gateway keeps no database), naming the agent and its supervisor, whatever LOG_LEVEL.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FakeIdentity, freePort } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';

const ORG = randomUUID();
const identity = new FakeIdentity();
let gateway: RunningGateway;
const clients: Client[] = [];
const logLines: string[] = [];
const realWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  await identity.start();
  gateway = await startGateway({
    // Nothing listens there: a read from standards-api is unavailable, and recorded so.
    STANDARDS_API_URL: `http://127.0.0.1:${await freePort()}`,
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
  });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await gateway?.close();
  await identity.stop();
});
// The gateway logs JSON lines on stdout: keep them to find its audit events.
beforeEach(() => {
  logLines.length = 0;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    logLines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = realWrite;
});

async function connectAs(credential: string): Promise<Client> {
  const client = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${credential}` });
  clients.push(client);
  return client;
}

function agentActions(): Record<string, unknown>[] {
  return logLines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['msg'] === 'agent action');
}

const ada = { audit: true, actorKind: 'agent', agentId: 'key-agent-ada', supervisorId: 'supervisor-ada', organizationId: ORG };

describe("an agent's actions at the gateway", () => {
  it('records every tool call with the agent, its supervisor, the tool, the organization and the outcome', async () => {
    const client = await connectAs(`stdreg_agent_ada_of:${ORG}`);
    const done = await client.callTool({ name: 'validate_split_rule', arguments: { content: sampleScenario() } });
    expect(done.isError).toBeFalsy();
    const invalid = await client.callTool({ name: 'validate_split_rule', arguments: { rules: 'none' } });
    expect(invalid.isError).toBe(true);
    expect(agentActions()).toEqual([
      expect.objectContaining({ ...ada, tool: 'validate_split_rule', outcome: 'done' }),
      expect.objectContaining({ ...ada, tool: 'validate_split_rule', outcome: 'invalid_arguments' }),
    ]);
  });

  it('records every organization resource read, the resource named by its URI', async () => {
    const client = await connectAs(`stdreg_agent_ada_of:${ORG}`);
    await client.readResource({ uri: `stdreg://organizations/${ORG}` });
    const projectUri = `stdreg://split-projects/${randomUUID()}`;
    await expect(client.readResource({ uri: projectUri })).rejects.toThrow();
    expect(agentActions()).toEqual([
      expect.objectContaining({ ...ada, resource: `stdreg://organizations/${ORG}`, outcome: 'read' }),
      expect.objectContaining({ ...ada, resource: projectUri, outcome: 'unavailable' }),
    ]);
  });

  it('records nothing as an agent action for an ordinary key', async () => {
    const client = await connectAs(`stdreg_app_partner_of:${ORG}`);
    await client.callTool({ name: 'validate_split_rule', arguments: { content: sampleScenario() } });
    await client.readResource({ uri: `stdreg://organizations/${ORG}` });
    expect(agentActions()).toEqual([]);
  });
});
