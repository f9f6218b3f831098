// What every answer to a hostile request must be: an answer in time, never a 5xx, a refusal the client can
// read (problem details, or the MCP error shape at the gateway), and nothing of the server's insides.
import { formField } from './form-requests';
import type { Answer, HostileRequest } from './hostile-request';

/** Text that only a server's insides produce: stack frames, SQL errors, file paths of the build. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s+at [^\n]+:\d+:\d+\)?/],
  ['a stack frame', /\bat (?:async )?[\w$.<>]+ \((?:file:\/\/)?\/[^)]+:\d+:\d+\)/],
  ['an internal path', /\/(?:work|home|usr\/src|app)\/[^\s"']*\/(?:dist|node_modules|apps|libs)\//],
  ['an internal path', /node_modules\//],
  ['an internal path', /\bdist\/apps\//],
  [
    'an SQL error',
    /QueryFailedError|syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|duplicate key value|invalid input syntax for type|relation "[^"]+" does not exist|column "[^"]+" (?:does not exist|of relation)|SQLSTATE|current transaction is aborted/i,
  ],
  ['an SQL statement', /\b(?:SELECT [^"]{0,200} FROM "?[a-z_]+"?|INSERT INTO "?[a-z_]+"?|UPDATE "?[a-z_]+"? SET|DELETE FROM "?[a-z_]+"?)/],
  [
    'an internal error name',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|URIError|EntityNotFoundError|EntityMetadataNotFoundError): /,
  ],
];

/** The answer's body with the request's own text taken out, so that echoing what was sent is never taken for a leak. */
function withoutEcho(body: string, sent: string[]): string {
  return sent.filter((text) => text.length >= 8).reduce((rest, text) => rest.split(text).join(''), body);
}

export function leaks(answer: Answer, sent: string[] = []): string[] {
  const body = withoutEcho(answer.body, sent);
  return LEAKS.filter(([, pattern]) => pattern.test(body)).map(
    ([what]) => `the body shows ${what}: ${excerpt(body, LEAKS.find(([w]) => w === what)![1])}`,
  );
}

function excerpt(body: string, pattern: RegExp): string {
  const at = body.search(pattern);
  return JSON.stringify(body.slice(Math.max(0, at - 60), at + 140));
}

function parsed(answer: Answer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

export function isProblemDetails(answer: Answer): boolean {
  const problem = parsed(answer) as { status?: unknown; title?: unknown } | undefined;
  return (
    answer.contentType.startsWith('application/problem+json') && problem?.status === answer.status && typeof problem.title === 'string'
  );
}

export function isJsonRpcError(value: unknown): boolean {
  const error = (value as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return (value as { jsonrpc?: unknown })?.jsonrpc === '2.0' && Number.isInteger(error?.code) && typeof error?.message === 'string';
}

/** What is wrong with the answer to a request at a REST API (an empty list when nothing is). */
export function restAnswerProblems(answer: Answer, sent: string[]): string[] {
  if (answer.failure) return [answer.failure];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}: ${answer.body.slice(0, 500)}`);
  else if (answer.status >= 400 && !isProblemDetails(answer))
    problems.push(
      `answered ${answer.status} without problem details (${answer.contentType || 'no content type'}): ${answer.body.slice(0, 300)}`,
    );
  return [...problems, ...leaks(answer, sent)];
}

/** The JSON-RPC messages of an MCP answer: the JSON body, or the `data:` lines of an event stream. */
export function mcpMessages(answer: Answer): unknown[] | undefined {
  if (answer.contentType.startsWith('text/event-stream')) {
    const data = answer.body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
    try {
      return data.map((line) => JSON.parse(line) as unknown).flat();
    } catch {
      return undefined;
    }
  }
  const value = parsed(answer);
  return value === undefined ? undefined : [value].flat();
}

/** What is wrong with the gateway's answer to a request at /mcp. */
export function mcpAnswerProblems(answer: Answer, sent: string[]): string[] {
  if (answer.failure) return [answer.failure];
  const problems: string[] = [];
  const messages = mcpMessages(answer);
  if (answer.status >= 500) problems.push(`answered ${answer.status}: ${answer.body.slice(0, 500)}`);
  else if (answer.status >= 400) {
    if (!isProblemDetails(answer) && !(messages?.length === 1 && isJsonRpcError(messages[0])))
      problems.push(`answered ${answer.status} with neither the MCP error shape nor problem details: ${answer.body.slice(0, 300)}`);
  } else if (answer.status === 200) {
    const malformed = (messages ?? [undefined]).filter((message) => !isJsonRpcResult(message) && !isJsonRpcError(message));
    if (malformed.length) problems.push(`answered 200 with something that is not a JSON-RPC answer: ${answer.body.slice(0, 300)}`);
    const internal = (messages ?? []).filter((message) => (message as { error?: { code?: number } }).error?.code === -32603);
    if (internal.length) problems.push(`answered JSON-RPC -32603 (internal error): ${answer.body.slice(0, 300)}`);
  }
  return [...problems, ...leaks(answer, sent)];
}

function isJsonRpcResult(value: unknown): boolean {
  const message = value as { jsonrpc?: unknown; result?: unknown } | undefined;
  return message?.jsonrpc === '2.0' && typeof message.result === 'object' && message.result !== null;
}

/**
 * Whether the request may have written nothing: an HTTP error (a JSON-RPC batch among them: the gateway refuses it
 * whole, 400), or no tool call in it that succeeded. Only a tool call drafts.
 */
export function mcpWroteNothing(answer: Answer): boolean {
  if (answer.failure || answer.status >= 400) return true;
  return !(mcpMessages(answer) ?? []).some(isSucceededToolCall);
}

function isSucceededToolCall(message: unknown): boolean {
  const result = (message as { result?: { content?: unknown; isError?: unknown } } | undefined)?.result;
  return Array.isArray(result?.content) && result.isError !== true;
}

/** What identity's browser and OAuth surface knows of the run: where it may send a browser, what it must never show. */
export interface FormSurfaceFacts {
  /** identity's origin: a redirect there (or to a path of it) stays on the site. */
  origin: string;
  /** Where the OpenID Provider is mounted, e.g. `/oidc`. */
  issuerPath: string;
  /** Redirect URIs registered for the run's client: the only places off the site a redirect may go. */
  redirectUris: string[];
  /** Secrets no answer may show unless the request itself carried them (client secret, keys, tokens). */
  secrets: string[];
  /** Secrets no answer may show at all, even when sent (a password typed on a page). */
  neverShown: string[];
  /** Access tokens of the run's client: revoking one writes. */
  accessTokens: string[];
}

/** Markup that, sent in a field and found unescaped in an HTML answer, a browser would run. */
const ACTIVE_MARKUP = ['<svg onload=alert(1)>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>'];
/** Shapes of credentials that no answer of this surface has any reason to hold. */
const CREDENTIAL_SHAPES: [string, RegExp][] = [
  ['a private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['a private JWK member', /"(?:d|p|q|dp|dq|qi)":"[A-Za-z0-9_-]{16,}"/],
  ['a password hash', /scrypt\$\d+\$\d+\$\d+\$/],
];

function isOAuthError(answer: Answer): boolean {
  const value = parsed(answer) as { error?: unknown } | undefined;
  return answer.contentType.startsWith('application/json') && typeof value?.error === 'string' && value.error.length > 0;
}

function isPage(answer: Answer): boolean {
  return answer.contentType.startsWith('text/html') && /<html[\s>]/i.test(answer.body);
}

/** Whether a redirect stays on the site or goes to one of the client's registered redirect URIs. */
function redirectAllowed(location: string, facts: FormSurfaceFacts): boolean {
  if (location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\')) return true;
  if (location.startsWith(`${facts.origin}/`)) return true;
  return facts.redirectUris.some((uri) => location === uri || location.startsWith(`${uri}?`) || location.startsWith(`${uri}#`));
}

/**
 * What is wrong with an answer of the browser and OAuth surface: no answer, a 5xx, a refusal nobody can
 * read (neither problem details, nor an OAuth error, nor a page, nor a sentence), a redirect without a
 * Location or off the site to anywhere but a registered redirect URI, markup sent reflected unescaped,
 * a secret or a credential's shape shown, or the insides of the server.
 */
export function formAnswerProblems(facts: FormSurfaceFacts): (answer: Answer, sent: string[]) => string[] {
  return (answer, sent) => {
    if (answer.failure) return [answer.failure];
    const problems: string[] = [];
    if (answer.status >= 500) problems.push(`answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    else if (answer.status >= 400 && !answer.bodiless) {
      const sentence = answer.contentType.startsWith('text/plain') && answer.body.trim().length > 0;
      if (!isProblemDetails(answer) && !isOAuthError(answer) && !isPage(answer) && !sentence)
        problems.push(
          `answered ${answer.status} with nothing a client can read (${answer.contentType || 'no content type'}): ${answer.body.slice(0, 300)}`,
        );
    } else if (answer.status >= 300 && answer.status < 400 && answer.status !== 304) {
      if (!answer.location) problems.push(`answered ${answer.status} without a Location`);
      else if (!redirectAllowed(answer.location, facts)) problems.push(`redirects off the site: ${answer.location.slice(0, 300)}`);
    }
    if (answer.contentType.startsWith('text/html'))
      for (const markup of ACTIVE_MARKUP.filter((m) => answer.body.includes(m)))
        problems.push(`the page shows the markup it was sent, unescaped: ${markup}`);
    for (const secret of facts.neverShown.filter((s) => answer.body.includes(s)))
      problems.push(`the body shows a password: ${secret.slice(0, 6)}…`);
    for (const secret of facts.secrets.filter((s) => answer.body.includes(s) && !sent.some((text) => text.includes(s))))
      problems.push(`the body shows a secret the request did not carry: ${secret.slice(0, 6)}…`);
    for (const [what, shape] of CREDENTIAL_SHAPES.filter(([, pattern]) => pattern.test(answer.body)))
      problems.push(`the body shows ${what}: ${excerpt(answer.body, shape)}`);
    return [...problems, ...leaks(answer, sent)];
  };
}

/**
 * Whether an answer of the browser and OAuth surface says the request wrote no row (see docs/reliability.md,
 * "Hostile input"). Every refusal (4xx) writes none: a failed password is counted on the password's row and
 * audited as a failure, neither of which the row counts see. Of the rest, only these write:
 * - the authorization endpoint, when it starts an interaction (a redirect to the sign-in page) or issues a
 *   code (to the client, by redirect or by a form_post page);
 * - resuming an interaction (`/auth/{uid}`), which ends it, whatever it redirects to;
 * - a pushed authorization request (201), a token (200), a registered client (201);
 * - a revocation (200) of one of the client's real tokens (a revocation of anything else is also 200);
 * - the logout question (200), which keeps its state in the browser's session (a new one if it had none),
 *   and its confirmation (a redirect), which ends the session;
 * - a login that succeeded (303: the audit entry of the sign-in), a consent that allowed (303: the grant);
 * - a password set (200 to the POST of a setup link).
 * A cancelled sign-in (303 of `abort`) and a denied consent update the interaction's row: no row count moves.
 */
export function formWroteNothing(facts: FormSurfaceFacts): (answer: Answer, hostile: HostileRequest) => boolean {
  const oidc = (path: string) => `${facts.issuerPath}${path}`;
  return (answer, hostile) => {
    if (answer.failure || answer.status >= 400) return true;
    const [method, pattern] = hostile.target.split(' ');
    const redirected = answer.status >= 300 && answer.status < 400;
    const carried = (values: string[]) => values.some((value) => hostile.path.includes(value) || (hostile.body ?? '').includes(value));
    switch (pattern) {
      case oidc('/auth'):
        return !(
          (redirected && (answer.location?.includes('/v1/signin/') || codeIn(answer.location))) ||
          (answer.status === 200 && /name="code"/.test(answer.body))
        );
      case oidc('/auth/{uid}'):
      case oidc('/session/end/confirm'):
        return !redirected;
      case oidc('/request'):
      case oidc('/reg'):
        return answer.status !== 201;
      case oidc('/token'):
        return answer.status !== 200;
      case oidc('/token/revocation'):
        return !(answer.status === 200 && carried(facts.accessTokens));
      case oidc('/session/end'):
        return answer.status !== 200;
      case '/v1/signin/{uid}/login':
        return answer.status !== 303;
      case '/v1/signin/{uid}/consent':
        return !(answer.status === 303 && formField(hostile, 'decision') === 'allow');
      case '/v1/password-setup/{token}':
        return !(method === 'POST' && answer.status === 200);
      default:
        return true;
    }
  };
}

function codeIn(location: string | undefined): boolean {
  if (!location) return false;
  try {
    return new URL(location, 'http://here.invalid').searchParams.has('code');
  } catch {
    return false;
  }
}
