import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { checkingLookup, refuseLiteralOutside, type AddressPolicy, type Resolver } from '../../platform/outbound/outbound-fetch';

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
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** The addresses a webhook may reach: public ones, and loopback or private ones only where configured. */
export function webhookAddressPolicy(policy: Pick<TargetPolicy, 'allowLoopback' | 'allowPrivate'>): AddressPolicy {
  return (address) => {
    if (!ipaddr.isValid(address)) return false;
    const range = ipaddr.process(address).range();
    if (range === 'unicast') return true;
    if (range === 'loopback') return policy.allowLoopback;
    if (range === 'private' || range === 'uniqueLocal') return policy.allowPrivate;
    return false;
  };
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
      connect: { lookup: checkingLookup(this.allowed, policy.resolve), timeout: policy.timeoutMs },
      headersTimeout: policy.timeoutMs,
      bodyTimeout: policy.timeoutMs,
    });
  }

  /** Why a URL may not be an endpoint, or null. Names are resolved and checked too; they are checked again on every connection. */
  async refusal(url: string): Promise<string | null> {
    const syntactic = this.syntacticRefusal(url);
    if (syntactic) return syntactic;
    const host = new URL(url).hostname;
    if (isIP(host.replace(/^\[|\]$/g, ''))) return null;
    const addresses = await new Promise<string[]>((resolve) =>
      checkingLookup(() => true, this.policy.resolve)(host, { all: true }, (error, found) =>
        resolve(error || !Array.isArray(found) ? [] : found.map((entry) => entry.address)),
      ),
    );
    const refused = addresses.find((address) => !this.allowed(address));
    return refused ? `${host} resolves to ${refused}, which webhooks may not reach` : null;
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const refused = this.syntacticRefusal(url);
    if (refused) return { ok: false, status: null, body: null, error: refused };
    if (Buffer.byteLength(body) > MAX_REQUEST_BYTES)
      return { ok: false, status: null, body: null, error: 'the event is larger than a webhook may be' };
    const signal = AbortSignal.timeout(this.policy.timeoutMs);
    try {
      const response = await request(url, { method: 'POST', body, headers, dispatcher: this.agent, signal });
      const text = await readBounded(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        ok,
        status: response.statusCode,
        body: text.slice(0, KEPT_RESPONSE_CHARS),
        error: ok ? null : `answered ${response.statusCode}`,
      };
    } catch (error) {
      return { ok: false, status: null, body: null, error: describe(error) };
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
    const loopbackHost = LOOPBACK_NAMES.has(host) || (isIP(host) !== 0 && ipaddr.process(host).range() === 'loopback');
    if (parsed.protocol === 'http:') {
      if (!(this.policy.allowLoopback && loopbackHost)) return 'must use https (http is allowed only to loopback, by configuration)';
    } else if (parsed.protocol !== 'https:') return 'must use https';
    if (LOOPBACK_NAMES.has(host) && !this.policy.allowLoopback) return `${host} is not an address webhooks may reach`;
    try {
      refuseLiteralOutside(this.allowed, url);
    } catch {
      return `${host} is not an address webhooks may reach`;
    }
    return null;
  }
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'the request failed';
  const cause = (error as Error & { cause?: unknown }).cause;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'no answer within the time limit';
  if (cause instanceof Error) return cause.message;
  return error.message;
}
