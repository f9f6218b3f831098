import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Locale } from '@stdreg/contracts';
import { evaluatePreconditions, preconditionsOf } from '../conditional-requests/preconditions';
import { registryChanged } from './registry.errors';

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

export interface RepresentationCacheLimits {
  entries: number;
  /** The bodies' bytes together; one larger than this is served but not kept. */
  bytes: number;
}

/**
 * Representations of one content version, keyed by route and variant; bounded by count and by bytes (a
 * page of a large release's terms is tens of kilobytes), the least recently used going first; dropped
 * whole on a new version. A representation whose records are read from the database is built once however
 * many requests ask for it meanwhile.
 */
export class RepresentationCache {
  private readonly entries = new Map<string, Representation>();
  private readonly building = new Map<string, Promise<Representation>>();
  private bytes = 0;

  constructor(private readonly limits: RepresentationCacheLimits) {}

  get(key: string, build: () => Representation): Representation;
  get(key: string, build: () => Representation | Promise<Representation>): Representation | Promise<Representation>;
  get(key: string, build: () => Representation | Promise<Representation>): Representation | Promise<Representation> {
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const pending = this.building.get(key);
    if (pending) return pending;
    const created = build();
    if (!(created instanceof Promise)) return this.keep(key, created);
    const settled = created.then(
      (representation) => {
        this.building.delete(key);
        return this.keep(key, representation);
      },
      (error: unknown) => {
        this.building.delete(key);
        throw error;
      },
    );
    this.building.set(key, settled);
    return settled;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private keep(key: string, created: Representation): Representation {
    if (created.body.length > this.limits.bytes) return created;
    this.entries.set(key, created);
    this.bytes += created.body.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.body.length;
    }
    return created;
  }
}

const CACHE_CONTROL = 'public, max-age=60';

/**
 * Writes a representation, or 304 when If-None-Match names it (weak comparison), or refuses with 412 when
 * If-Match does not name it (strong comparison), as RFC 9110 section 13.2.2 orders them.
 */
export function sendRepresentation(response: ServerResponse, representation: Representation): void {
  const outcome = evaluatePreconditions(response.req.method ?? 'GET', preconditionsOf(response.req.headers), representation.etag);
  if (outcome === 'if-match-failed' || outcome === 'if-none-match-failed') throw registryChanged(representation.etag);
  response.setHeader('ETag', representation.etag);
  response.setHeader('Cache-Control', CACHE_CONTROL);
  response.setHeader('Vary', 'Accept-Language');
  if (representation.contentLanguage) response.setHeader('Content-Language', representation.contentLanguage);
  if (outcome === 'not-modified') {
    response.statusCode = 304;
    response.end();
    return;
  }
  response.statusCode = 200;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', representation.body.length);
  response.end(representation.body);
}

/** Writes a representation once it is made: at once when it was at hand, else when its records have been read. */
export function sendWhenReady(response: ServerResponse, representation: Representation | Promise<Representation>): void | Promise<void> {
  if (representation instanceof Promise) return representation.then((ready) => sendRepresentation(response, ready));
  sendRepresentation(response, representation);
}
