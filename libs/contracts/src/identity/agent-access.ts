import type { Action } from './actions';

/**
 * What an agent client may be granted at the tool gateway, by capability. No scope reaches a formal
 * action: approval, activation, rule versions, settlement posting, equity and payment are never an agent's.
 */
export const AGENT_SCOPES = ['registry:read', 'projects:read', 'projects:draft'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

export const AGENT_SCOPE_DESCRIPTIONS: Record<AgentScope, string> = {
  'registry:read': 'Call the tools that read the standards registry or compute from their input',
  'projects:read': "Read the person's organizations: split projects, settlement runs, equity ledgers",
  'projects:draft': "Draft split projects in the person's organizations",
};

/** A space-separated list of agent scopes, as the decision request carries it. */
export const AGENT_SCOPE_LIST = /^(registry:read|projects:read|projects:draft)( (registry:read|projects:read|projects:draft))*$/;

export function isAgentScope(value: string): value is AgentScope {
  return (AGENT_SCOPES as readonly string[]).includes(value);
}

/**
 * The scope an agent needs for an action of the catalogue. `tool:call` names none: the tool's own scope
 * comes with the question. Formal actions name none because no agent is ever allowed them.
 */
export function agentScopeForAction(action: Action): AgentScope | null {
  switch (action) {
    case 'organization:read':
    case 'split-project:read':
    case 'settlement-run:read':
    case 'equity-ledger:read':
      return 'projects:read';
    case 'split-project:draft':
      return 'projects:draft';
    default:
      return null;
  }
}

/**
 * A resource URL in the one form the platform publishes and compares (the gateway's resource identifier,
 * an access token's audience): scheme and host in lower case, no default port, no trailing slash, no
 * query or fragment (RFC 8707 §2: a resource indicator has no fragment; the path keeps its case, which is
 * significant).
 */
export function canonicalResourceUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${withoutTrailingSlashes(parsed.pathname)}`;
}

/** The text without the slashes it ends with, found from the end: `/\/+$/` is quadratic in a run of slashes not at the end. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}
