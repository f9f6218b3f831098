// What one POST /mcp asks for, read from its body before any MCP server sees it: which operations need a credential, and which scopes.
import type { AgentScope } from '@stdreg/contracts';
import { parseResourceUri } from '../resources/resource-catalogue';
import { TOOLS } from '../tools/tool-catalogue';

export interface RequestOperations {
  /** tools/call, or resources/read of an organization's resource: nothing is done without a credential. */
  needsCredential: boolean;
  /** tools/list: what it shows an agent's token depends on the token's scopes. */
  listsTools: boolean;
  /** The agent scope the operation needs, if any. */
  scopes: AgentScope[];
}

const TOOL_SCOPES = new Map(TOOLS.map((tool) => [tool.name, tool.scope]));

/**
 * Decided here: `tools/call` of a tool always needs a credential (every tool is authorized per call), and so does
 * reading an organization's resource; the registry, the catalogue and the protocol's own methods do not.
 */
export function requestOperations(message: unknown): RequestOperations {
  if (typeof message !== 'object' || message === null) return { needsCredential: false, listsTools: false, scopes: [] };
  const { method, params } = message as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
  // An unknown tool is answered -32602 by the server, credential or not: there is nothing to authorize.
  const toolScope = method === 'tools/call' && typeof params?.name === 'string' ? TOOL_SCOPES.get(params.name) : undefined;
  const organizationRead =
    method === 'resources/read' && typeof params?.uri === 'string' ? parseResourceUri(params.uri)?.template.action : null;
  const scope: AgentScope | undefined = toolScope ?? (organizationRead ? 'projects:read' : undefined);
  return { needsCredential: scope !== undefined, listsTools: method === 'tools/list', scopes: scope ? [scope] : [] };
}
