// What every answer to a hostile request must be: an answer in time, never a 5xx, a refusal the client can
// read (problem details, or the MCP error shape at the gateway), and nothing of the server's insides.
import type { Answer } from './hostile-request';

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
 * Whether the request may have written nothing: an HTTP error, or no tool call in it that succeeded. Only a tool
 * call drafts, and a batch's calls run on their own (JSON-RPC 2.0), so a batch with one call refused may still hold a
 * draft that was made.
 */
export function mcpWroteNothing(answer: Answer): boolean {
  if (answer.failure || answer.status >= 400) return true;
  return !(mcpMessages(answer) ?? []).some(isSucceededToolCall);
}

function isSucceededToolCall(message: unknown): boolean {
  const result = (message as { result?: { content?: unknown; isError?: unknown } } | undefined)?.result;
  return Array.isArray(result?.content) && result.isError !== true;
}
