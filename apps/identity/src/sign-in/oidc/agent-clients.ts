import { errors } from 'oidc-provider';
import { jsonInputProblem, unconvertibleField } from '@stdreg/server-kit';
import { displayTextProblem, shortenedText } from '@stdreg/contracts';

/** The client metadata property that marks an agent client ("agent"); identity sets it, a client cannot. */
export const AGENT_CLIENT_KIND_PROPERTY = 'client_kind';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const AGENT_GRANT_TYPES = ['authorization_code', 'refresh_token'];
/** What the provider puts where a client's metadata names no token endpoint authentication method (RFC 7591 §2). */
const DEFAULT_AUTH_METHOD = 'client_secret_basic';

/**
 * Agent clients are the public ones: registered by RFC 7591 or known by their metadata document, never
 * with a secret. Partner apps (registered through POST /v1/apps) always authenticate with theirs.
 */
export function isAgentClient(client: { tokenEndpointAuthMethod?: string } | undefined): boolean {
  return client?.tokenEndpointAuthMethod === 'none';
}

interface ValidationContext {
  oidc?: { route?: string };
}

/**
 * The rules every agent client is held to, applied while the provider reads a client's metadata (it
 * asks for every client; a partner app's passes untouched): a client registering by RFC 7591, one whose
 * id is an https URL (a metadata document), and one stored as an agent are public clients of the code
 * flow (PKCE is required of every client) with refresh tokens, whose redirect URIs are https or a
 * loopback address (any port: they are native clients, RFC 8252 §7.3).
 */
export function agentClientMetadata(
  ctx: ValidationContext | undefined,
  key: string,
  value: unknown,
  metadata: Record<string, unknown>,
): void {
  if (key !== AGENT_CLIENT_KIND_PROPERTY) return;
  const registering = ctx?.oidc?.route === 'registration';
  const byDocument = !registering && typeof metadata['client_id'] === 'string' && metadata['client_id'].startsWith('https://');
  if (!registering && !byDocument && value !== 'agent') {
    if (value !== undefined) throw new errors.InvalidClientMetadata(`${AGENT_CLIENT_KIND_PROPERTY} is set by identity`);
    return;
  }
  // Before the provider's own checks, some of which convert a value to text and throw on one that has none.
  const unconvertible = unconvertibleField(metadata);
  if (unconvertible !== null) throw new errors.InvalidClientMetadata(`${unconvertible} is an object that has no text value`);
  // Stored as JSON in PostgreSQL, which holds no NUL and no unpaired surrogate: refused here, not a 500 at the store.
  const unstorable = jsonInputProblem(metadata);
  if (unstorable !== null) throw new errors.InvalidClientMetadata(unstorable.message);
  // MCP authorization (2025-11-25, "Client ID Metadata Documents"): a document names its client; the server checks it does.
  if (byDocument && metadata['client_name'] === undefined)
    throw new errors.InvalidClientMetadata('client_name is required in a metadata document');
  // The consent page shows a person the client's name (the provider keeps no language-tagged `client_name#fr`).
  const nameProblem = metadata['client_name'] === undefined ? null : displayTextProblem(String(metadata['client_name']));
  if (nameProblem !== null) throw new errors.InvalidClientMetadata(`client_name ${nameProblem}`);
  // A document's publisher asking for key authentication must get it (CIMD draft §8.2), and identity holds no agent to
  // keys: refused rather than made public. The provider has refused secret methods already and filled in its default
  // (client_secret_basic) where the document names none, so only that default and `none` remain to take.
  const authMethod = metadata['token_endpoint_auth_method'];
  if (byDocument && authMethod !== 'none' && authMethod !== DEFAULT_AUTH_METHOD) {
    throw new errors.InvalidClientMetadata(
      `token_endpoint_auth_method ${describedValue(authMethod)} is not taken: agent clients are public clients (none) with PKCE`,
    );
  }
  metadata[AGENT_CLIENT_KIND_PROPERTY] = 'agent';
  // RFC 7591 §3.2.1 lets the server choose, and its answer tells the client: an agent client never holds a secret.
  metadata['token_endpoint_auth_method'] = 'none';
  const grantTypes = Array.isArray(metadata['grant_types']) ? (metadata['grant_types'] as unknown[]) : AGENT_GRANT_TYPES;
  const refused = grantTypes.filter((grant) => typeof grant !== 'string' || !AGENT_GRANT_TYPES.includes(grant));
  if (refused.length > 0) {
    throw new errors.InvalidClientMetadata(
      `agent clients may use only ${AGENT_GRANT_TYPES.join(' and ')}, not ${refused.map(describedValue).join(', ')}`,
    );
  }
  metadata['grant_types'] = AGENT_GRANT_TYPES;
  metadata['response_types'] = ['code'];
  const redirectUris = Array.isArray(metadata['redirect_uris']) ? (metadata['redirect_uris'] as unknown[]) : [];
  let loopback = false;
  for (const uri of redirectUris) {
    const kind = agentRedirectKind(uri);
    // Worded from `redirect_uris`, so the provider answers RFC 7591's invalid_redirect_uri, as for its own redirect checks.
    if (kind === null)
      throw new errors.InvalidClientMetadata(
        'redirect_uris of agent clients are https URIs or http on a loopback address (any port), without user info',
      );
    if (kind === 'loopback') loopback = true;
  }
  if (loopback) metadata['application_type'] = 'native';
  // Where the provider sends a person after signing out: held to the same rule, or an agent would make identity redirect anywhere.
  const logoutUris = Array.isArray(metadata['post_logout_redirect_uris']) ? (metadata['post_logout_redirect_uris'] as unknown[]) : [];
  if (logoutUris.some((uri) => agentRedirectKind(uri) === null)) {
    throw new errors.InvalidClientMetadata('agent clients return after sign-out to https URIs or to http on a loopback address');
  }
  // A registered scope would bind later sign-ins to the first challenge's scopes; an agent asks per sign-in.
  delete metadata['scope'];
  delete metadata['require_auth_time'];
  delete metadata['default_max_age'];
}

/**
 * Where an agent may send a person: an https URI on a named host, or plain http on this computer; null for anything
 * else, a private-use scheme (`com.example.app:/cb`) and user info (`https://desk-agent.example@other.example/`) included.
 */
export function agentRedirectKind(uri: unknown): 'https' | 'loopback' | null {
  const parsed = typeof uri === 'string' ? URL.parse(uri) : null;
  if (parsed === null || parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return 'loopback';
  if (parsed.protocol === 'https:' && !LOOPBACK_HOSTS.has(parsed.hostname)) return 'https';
  return null;
}

/**
 * What a Client ID Metadata Document's URL lacks that the draft asks of it (§3), or null. The provider checks the
 * scheme, user info, dot segments and fragment; a URL with no path (`https://agent.example`) it would fetch.
 */
export function metadataDocumentUrlProblem(clientId: string): string | null {
  const afterScheme = clientId.slice(clientId.indexOf('://') + 3);
  const authorityEnd = afterScheme.search(/[/?#]/u);
  if (authorityEnd === -1 || afterScheme[authorityEnd] !== '/') return 'a client_id URL must have a path';
  return null;
}

/** A refused value as the error may quote it: a client's own text, shortened; any other JSON value as JSON. */
function describedValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(typeof value));
  return shortenedText(text, 60, '…');
}
