import type { IncomingMessage, ServerResponse } from 'node:http';

/** The storage policy of an answer whose route names none: keys, secrets, tokens, an organization's data, errors. */
export const NOT_STORED = 'no-store';

/**
 * Says, before any route runs, that no cache (shared or the browser's) may store the answer. A route whose answers
 * may be stored says so itself, replacing this (registry reads: `public`; a scenario: `private, no-cache`); a
 * route that forgets stays uncached, never the other way round.
 */
export function notStoredUnlessRouteSays(_request: IncomingMessage, response: ServerResponse, next: () => void): void {
  response.setHeader('Cache-Control', NOT_STORED);
  next();
}
