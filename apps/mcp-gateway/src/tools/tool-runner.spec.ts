import { TOOL_REFUSAL_META } from '@stdreg/contracts';
import type { JsonLogger } from '@stdreg/server-kit';
import type { McpCaller } from '../callers/caller';
import type { GatewayAuthorization } from '../callers/gateway-authorization';
import type { RegistryCache } from '../upstream/registry-cache';
import type { StandardsApiClient } from '../upstream/standards-api.client';
import { ToolRunner } from './tool-runner';

const ORG = '01900000-0000-7000-8000-000000000001';
const caller: McpCaller = {
  credential: { kind: 'api_key', value: 'stdreg_app_secret' },
  organizationId: null,
  organizationHeaderInvalid: false,
  ip: '10.0.0.1',
  admitted: null,
};

describe('a tool that throws', () => {
  it('is answered tool_failed, saying nothing was changed, and logged', async () => {
    const authorization = {
      toolCall: async () => ({
        ok: true,
        caller: { credential: caller.credential, organization: { ok: true, organizationId: ORG }, subject: { kind: 'app_key', id: 'k' } },
      }),
    } as unknown as GatewayAuthorization;
    const registry = {
      search: async () => {
        throw new Error('socket hang up');
      },
    } as unknown as RegistryCache;
    const logged: unknown[] = [];
    const logger = { event: (...event: unknown[]) => logged.push(event) } as unknown as JsonLogger;
    const runner = new ToolRunner(authorization, registry, {} as StandardsApiClient, logger);
    expect(await runner.call('resolve_term', { text: 'cap' }, caller)).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'resolve_term failed unexpectedly; nothing was changed. Retry, or report it if it persists.' }],
      _meta: { [TOOL_REFUSAL_META]: { code: 'tool_failed' } },
    });
    expect(logged).toEqual([['error', 'tool failed', { tool: 'resolve_term', error: 'socket hang up' }, 'ToolRunner']]);
  });
});

describe('the question a tool call puts to identity', () => {
  it("names the tool's scope, and read-only only for a tool that changes nothing", async () => {
    const asked: unknown[] = [];
    const authorization = {
      toolCall: async (_caller: McpCaller, tool: unknown) => {
        asked.push(tool);
        return { ok: false, code: 'not_allowed', message: 'Not allowed (tool:call): test.' };
      },
    } as unknown as GatewayAuthorization;
    const runner = new ToolRunner(authorization, {} as RegistryCache, {} as StandardsApiClient, {} as JsonLogger);
    await runner.call('draft_split_project', {}, caller);
    await runner.call('validate_split_rule', {}, caller);
    expect(asked).toEqual([
      { scope: 'projects:draft', readOnly: false },
      { scope: 'registry:read', readOnly: true },
    ]);
  });
});

describe('a tool call identity did not allow', () => {
  it("is refused with identity's reason and its own code, and runs nothing", async () => {
    const authorization = {
      toolCall: async () => ({ ok: false, code: 'authorization_unavailable', message: 'Authorization could not be established.' }),
    } as unknown as GatewayAuthorization;
    const registry = {
      search: async () => {
        throw new Error('the tool ran');
      },
    } as unknown as RegistryCache;
    const runner = new ToolRunner(authorization, registry, {} as StandardsApiClient, {} as JsonLogger);
    expect(await runner.call('resolve_term', { text: 'cap' }, caller)).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Refused: Authorization could not be established.' }],
      _meta: { [TOOL_REFUSAL_META]: { code: 'authorization_unavailable' } },
    });
  });
});
