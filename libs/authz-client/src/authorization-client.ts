import { createHash } from 'node:crypto';
import { Pool } from 'undici';
import {
  ACTION_CATALOGUE, DECISIONS, SUBJECT_KINDS, type Action, type DecisionResourceDto, type DecisionSubjectDto,
  type ForwardedCredentialDto,
} from '@stdreg/contracts';
import { outgoingTraceHeaders, recordAuthorizationDecision } from '@stdreg/server-kit';

export interface AuthorizationClientOptions {
  /** identity's base URL, without /v1. */
  identityUrl: string;
  /** This service's credential for the decision endpoint. */
  serviceToken: string;
  /** How long to wait for identity before denying (default 2000 ms). */
  timeoutMs?: number;
  /** How long an allow for a non-write action may be reused (0 turns the cache off; at most 1000 ms). */
  readAllowCacheMs?: number;
  /** Keep-alive connections to identity. */
  connections?: number;
}

export interface AuthorizationQuestion {
  credential: ForwardedCredentialDto;
  action: Action;
  resource: DecisionResourceDto;
}

export type AuthorizationAnswer =
  | { decision: 'allow'; reason: string; subject: DecisionSubjectDto }
  | { decision: 'deny'; reason: string; subject: DecisionSubjectDto | null; unavailable: boolean };

const READ_CACHE_LIMIT = 10_000;

/**
 * Asks identity whether a credential may perform an action on a resource. Fails closed: connection
 * refused, timeout, any non-2xx, a malformed or unexpected body all become a denial marked
 * `unavailable`. Allows of read actions may be reused for up to a second, counted from when identity
 * was asked, and concurrent asks of the same read share one request; writes always ask.
 */
export class AuthorizationClient {
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly readAllowCacheMs: number;
  private readonly readAllows = new Map<string, { answer: AuthorizationAnswer; expiresAt: number }>();
  private readonly readsInFlight = new Map<string, { answer: Promise<AuthorizationAnswer>; askedAt: number }>();
  private readonly authorization: string;
  private readonly path: string;

  constructor(options: AuthorizationClientOptions) {
    const origin = new URL(options.identityUrl);
    this.pool = new Pool(origin.origin, { connections: options.connections ?? 32, pipelining: 1 });
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.readAllowCacheMs = Math.min(options.readAllowCacheMs ?? 1000, 1000);
    this.authorization = `Bearer ${options.serviceToken}`;
    this.path = `${origin.pathname.replace(/\/$/, '')}/v1/decisions`;
  }

  /** Every answer, cached or asked, is counted by outcome (`authorization_decisions_total{side="asked"}`). */
  async ask(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    const answer = await this.answer(question);
    recordAuthorizationDecision('asked', answer.decision === 'allow' ? 'allow' : answer.unavailable ? 'unavailable' : 'deny');
    return answer;
  }

  private async answer(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    if (this.readAllowCacheMs === 0 || !isReadAction(question.action)) return this.askIdentity(question);
    const cacheKey = cacheKeyOf(question);
    const now = Date.now();
    const cached = this.readAllows.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.answer;
    // The same read asked within the cache window is joined: its answer is no older than a cached one.
    const inFlight = this.readsInFlight.get(cacheKey);
    if (inFlight && now - inFlight.askedAt < this.readAllowCacheMs) return inFlight.answer;
    const asked = this.askIdentity(question);
    this.readsInFlight.set(cacheKey, { answer: asked, askedAt: now });
    const answer = await asked;
    if (this.readsInFlight.get(cacheKey)?.answer === asked) this.readsInFlight.delete(cacheKey);
    if (answer.decision === 'allow') {
      if (this.readAllows.size >= READ_CACHE_LIMIT) this.readAllows.clear();
      this.readAllows.set(cacheKey, { answer, expiresAt: now + this.readAllowCacheMs });
    }
    return answer;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async askIdentity(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: this.path,
        headers: {
          authorization: this.authorization, 'content-type': 'application/json', accept: 'application/json', ...outgoingTraceHeaders(),
        },
        body: JSON.stringify({ credential: question.credential, action: question.action, resource: question.resource }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: deadline,
      });
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump();
        return unavailable(`identity answered ${response.statusCode}`);
      }
      return parseAnswer(await response.body.text());
    } catch (error) {
      const timedOut = deadline.aborted || (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
      return unavailable(timedOut ? 'identity did not answer in time' : 'identity is unreachable');
    }
  }
}

function unavailable(reason: string): AuthorizationAnswer {
  return { decision: 'deny', reason, subject: null, unavailable: true };
}

/** Anything but a well-formed allow or deny is a denial. */
export function parseAnswer(text: string): AuthorizationAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return unavailable('identity answered something that is not JSON');
  }
  if (typeof body !== 'object' || body === null) return unavailable('identity answered an unexpected body');
  const { decision, reason, subject } = body as Record<string, unknown>;
  if (!(DECISIONS as readonly unknown[]).includes(decision) || typeof reason !== 'string') {
    return unavailable('identity answered an unknown decision');
  }
  const validSubject = isSubject(subject) ? subject : null;
  if (decision === 'allow') {
    return validSubject ? { decision: 'allow', reason, subject: validSubject } : unavailable('identity allowed without a subject');
  }
  return { decision: 'deny', reason, subject: validSubject, unavailable: false };
}

function isSubject(value: unknown): value is DecisionSubjectDto {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, id } = value as Record<string, unknown>;
  return (SUBJECT_KINDS as readonly unknown[]).includes(kind) && typeof id === 'string' && id.length > 0;
}

function isReadAction(action: Action): boolean {
  return action.endsWith(':read') && !ACTION_CATALOGUE[action].formal;
}

function cacheKeyOf(question: AuthorizationQuestion): string {
  const credential = createHash('sha256').update(`${question.credential.kind}:${question.credential.value}`).digest('base64url');
  return `${credential}|${question.action}|${question.resource.organizationId ?? ''}|${question.resource.projectId ?? ''}`;
}
