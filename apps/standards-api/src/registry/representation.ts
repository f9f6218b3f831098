import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Locale } from '@stdreg/contracts';

/** A response serialized once: its bytes, its strong ETag and the language it is in. */
export interface Representation {
  body: Buffer;
  etag: string;
  contentLanguage: Locale | null;
}

export function represent(value: unknown, contentLanguage: Locale | null): Representation {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { body, etag, contentLanguage };
}

/** Representations of one content version, keyed by route and variant; bounded, dropped whole on a new version. */
export class RepresentationCache {
  private readonly entries = new Map<string, Representation>();

  constructor(private readonly limit: number) {}

  get(key: string, build: () => Representation): Representation {
    const cached = this.entries.get(key);
    if (cached) return cached;
    const created = build();
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, created);
    return created;
  }

  get size(): number {
    return this.entries.size;
  }
}

const CACHE_CONTROL = 'public, max-age=60';

/** Writes a representation, or 304 when If-None-Match already names it (weak comparison, RFC 9110). */
export function sendRepresentation(response: ServerResponse, representation: Representation): void {
  response.setHeader('ETag', representation.etag);
  response.setHeader('Cache-Control', CACHE_CONTROL);
  response.setHeader('Vary', 'Accept-Language');
  if (representation.contentLanguage) response.setHeader('Content-Language', representation.contentLanguage);
  if (matchesIfNoneMatch(response.req.headers['if-none-match'], representation.etag)) {
    response.statusCode = 304;
    response.end();
    return;
  }
  response.statusCode = 200;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', representation.body.length);
  response.end(representation.body);
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
