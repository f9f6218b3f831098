// What one POST /mcp asks for, read from its body before any MCP server sees it: which operations need a credential, and which scopes.
import type { AgentScope } from '@stdreg/contracts';
import { parseResourceUri } from '../resources/resource-catalogue';
import { TOOLS } from '../tools/tool-catalogue';

export interface RequestOperations {
  /** tools/call, or resources/read of an organization's resource: nothing is done without a credential. */
  needsCredential: boolean;
  /** tools/list: what it shows an agent's token depends on the token's scopes. */
  listsTools: boolean;
  /** The agent scopes the operations need, in the catalogue's order. */
  scopes: AgentScope[];
}

const SCOPE_ORDER: readonly AgentScope[] = ['registry:read', 'projects:read', 'projects:draft'];
const TOOL_SCOPES = new Map(TOOLS.map((tool) => [tool.name, tool.scope]));

/**
 * Decided here: `tools/call` of a tool always needs a credential (every tool is authorized per call), and so does
 * reading an organization's resource; the registry, the catalogue and the protocol's own methods do not.
 */
export function requestOperations(body: unknown): RequestOperations {
  const messages = Array.isArray(body) ? body : [body];
  const scopes = new Set<AgentScope>();
  let needsCredential = false;
  let listsTools = false;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
    if (method === 'tools/list') listsTools = true;
    // An unknown tool is answered -32602 by the server, credential or not: there is nothing to authorize.
    const scope = method === 'tools/call' && typeof params?.name === 'string' ? TOOL_SCOPES.get(params.name) : undefined;
    if (scope) {
      needsCredential = true;
      scopes.add(scope);
    }
    if (method === 'resources/read' && typeof params?.uri === 'string' && parseResourceUri(params.uri)?.template.action) {
      needsCredential = true;
      scopes.add('projects:read');
    }
  }
  return { needsCredential, listsTools, scopes: SCOPE_ORDER.filter((scope) => scopes.has(scope)) };
}
