import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { shortenedText } from '@stdreg/contracts';
import { addressPolicy, parseAddress } from '../../platform/outbound/address-policy';
import {
  checkingConnector,
  checkingLookup,
  isLoopbackAddress,
  refuseLiteralOutside,
  SpecialUseAddressError,
  type AddressPolicy,
  type Resolver,
} from '../../platform/outbound/outbound-fetch';

/** Bounds of one delivery: what is sent, what is read of the answer, and what of it is kept. */
export const MAX_REQUEST_BYTES = 256 * 1024;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const KEPT_RESPONSE_CHARS = 1024;

export interface TargetPolicy {
  /** http:// and loopback addresses (development and tests). */
  allowLoopback: boolean;
  /** Private networks (RFC 1918, unique-local). Link-local, metadata and other special-use ranges never. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Name resolution; tests stand in their own to change an answer between a check and a connection. */
  resolve?: Resolver;
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  /** The receiver's `Retry-After`, in seconds from now, when it sent one that parses. */
  retryAfterSeconds: number | null;
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** The addresses a webhook may reach: public ones, and loopback or private ones only where configured (address-policy.ts). */
export function webhookAddressPolicy(policy: Pick<TargetPolicy, 'allowLoopback' | 'allowPrivate'>): AddressPolicy {
  return addressPolicy({ allowLoopback: policy.allowLoopback, allowPrivate: policy.allowPrivate });
}

/** The signature header: one `v1,` signature per secret that signs (two during a rotation's overlap). */
export function signatureHeader(secrets: string[], webhookId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, timestamp, body)).join(' ');
}

/**
 * Sends webhooks where partners' URLs point, and nowhere else: https (http only to loopback, where
 * allowed), to addresses checked as the socket resolves them (a literal address before any
 * connection), without following redirects, within a time bound, reading a bounded answer.
 */
export class WebhookTransport {
  private readonly allowed: AddressPolicy;
  private readonly agent: Agent;

  constructor(private readonly policy: TargetPolicy) {
    this.allowed = webhookAddressPolicy(policy);
    this.agent = new Agent({
      connect: checkingConnector(this.allowed, { resolve: policy.resolve, timeoutMs: policy.timeoutMs }),
      headersTimeout: policy.timeoutMs,
      bodyTimeout: policy.timeoutMs,
    });
  }

  /** Why a URL may not be an endpoint, or null. Names are resolved and checked too; they are checked again on every connection. */
  async refusal(url: string): Promise<string | null> {
    const syntactic = this.syntacticRefusal(url);
    if (syntactic) return syntactic;
    const host = new URL(url).hostname;
    if (parseAddress(host)) return null;
    const refused = await new Promise<SpecialUseAddressError | null>((resolve) =>
      checkingLookup(this.allowed, this.policy.resolve)(host, { all: true }, (error) =>
        resolve(error instanceof SpecialUseAddressError && error.address !== undefined ? error : null),
      ),
    );
    return refused ? notPublic(host) : null;
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const refused = this.syntacticRefusal(url);
    if (refused) return { ok: false, status: null, body: null, error: refused, retryAfterSeconds: null };
    if (Buffer.byteLength(body) > MAX_REQUEST_BYTES)
      return { ok: false, status: null, body: null, error: 'the event is larger than a webhook may be', retryAfterSeconds: null };
    const signal = AbortSignal.timeout(this.policy.timeoutMs);
    try {
      const response = await request(url, { method: 'POST', body, headers, dispatcher: this.agent, signal });
      const text = await readBounded(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        ok,
        status: response.statusCode,
        body: keptAnswer(text),
        error: ok ? null : `answered ${response.statusCode}`,
        retryAfterSeconds: retryAfter(response.headers['retry-after']),
      };
    } catch (error) {
      return { ok: false, status: null, body: null, error: describe(error), retryAfterSeconds: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private syntacticRefusal(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'must be an absolute URL';
    }
    if (parsed.username || parsed.password) return 'must not carry credentials';
    if (parsed.hash) return 'must not contain a fragment';
    const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const loopbackHost = LOOPBACK_NAMES.has(host) || isLoopbackAddress(host);
    if (parsed.protocol === 'http:') {
      if (!(this.policy.allowLoopback && loopbackHost)) return 'must use https (http is allowed only to loopback, by configuration)';
    } else if (parsed.protocol !== 'https:') return 'must use https';
    if (LOOPBACK_NAMES.has(host) && !this.policy.allowLoopback) return `${host} is not an address webhooks may reach`;
    try {
      refuseLiteralOutside(this.allowed, url);
    } catch (error) {
      return `${host} is not an address webhooks may reach: ${(error as SpecialUseAddressError).why}`;
    }
    return null;
  }
}

/** A `Retry-After` header (delay-seconds or an HTTP-date, RFC 9110) as seconds from now; null when absent or unreadable. */
export function retryAfter(header: string | string[] | undefined, now: number = Date.now()): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  if (!/^[A-Za-z]{3}, /.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * What arrives of an answer's body, up to the bound. The status has been given by then and decides the attempt
 * (Standard Webhooks: "successful if it was responded to with a 2xx status code"), so a body cut short or still
 * coming at the time limit ends the read with what came, never the attempt: a 2xx stays delivered, a 410 still
 * stops the endpoint, a 503's Retry-After still holds.
 */
async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_RESPONSE_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // Cut short or timed out (the stream is destroyed already): what came is kept.
  }
  return Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
}

/**
 * The start of an answer as a text column can hold it: no NUL (PostgreSQL refuses one, and the attempt
 * would go unrecorded and be sent again), and no character cut in half at the bound.
 */
function keptAnswer(text: string): string {
  return shortenedText(text.replaceAll('\u0000', '\ufffd'), KEPT_RESPONSE_CHARS);
}

function describe(error: unknown): string {
  // By name first: an abort's DOMException may come from another realm than this module's Error.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'no answer within the time limit';
  if (!(error instanceof Error)) return 'the request failed';
  const cause = (error as Error & { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause : error;
  if (reason instanceof SpecialUseAddressError && reason.address !== undefined && reason.address !== reason.host)
    return notPublic(reason.host);
  return reason.message;
}

/**
 * A name refused for what it resolves to, as the partner reads it (the 400, a delivery's error): without the
 * address the platform's resolver gave, which for an internal name would tell them the platform's network.
 */
function notPublic(host: string): string {
  return `${host} resolves to an address that is not public, which webhooks may not reach`;
}
