import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import {
  ACTION_CATALOGUE,
  AUTHENTICATION_TOO_OLD,
  credentialDigest,
  DECISION_ANSWER_MAX_BYTES,
  DECISION_SIGNATURE_HEADER,
  decisionSignatureMatches,
  DECISIONS,
  DENIAL_REASONS,
  MAX_FORMAL_WRITE_MAX_AGE_SECONDS,
  READ_ALLOW_REUSE_LIMIT_MS,
  SUBJECT_KINDS,
  type Action,
  type DecisionQuestionDto,
  type DecisionResourceDto,
  type DecisionSubjectDto,
  type ForwardedCredentialDto,
  type SubjectChangeDto,
} from '@stdreg/contracts';
import { outgoingTraceHeaders, recordAuthorizationDecision, serviceUrl } from '@stdreg/server-kit';
import { SubjectChangeFeed } from './subject-change-feed';

export interface AuthorizationClientOptions {
  /** identity's base URL, without /v1. */
  identityUrl: string;
  /** This service's credential for the decision endpoint. */
  serviceToken: string;
  /** How long to wait for identity before denying (default 2000 ms). */
  timeoutMs?: number;
  /** How long an allow for a non-write action may be reused (0 turns the cache off; at most 1000 ms). */
  readAllowCacheMs?: number;
  /**
   * Follow identity's subject changes (GET /v1/subject-changes) and drop the allows a change touches, so a
   * revoked key or role is refused at once; allows are then reused only while that stream is open.
   * Without it (the default here, on in `authorizationClientProviders`), an allow lives its window out.
   */
  followSubjectChanges?: boolean;
  /** Keep-alive connections to identity. */
  connections?: number;
  /** The resource this service is (RFC 8707), named in every question: identity refuses access tokens for another. Absent: the standards API. */
  audience?: string;
  /** The time in milliseconds the reuse window is read against (default `Date.now`; a spec holds it still). */
  clock?: () => number;
}

export interface AuthorizationQuestion {
  credential: ForwardedCredentialDto;
  action: Action;
  resource: DecisionResourceDto;
  /** Agent scopes the operation needs beyond the action's own (space-separated), e.g. a tool's. */
  scope?: string;
  /**
   * The asker vouches that the allow guards reading only (a read-only tool's `tool:call`): it may then be
   * reused like an allow of a `:read` action. Never for a formal action.
   */
  readOnly?: boolean;
}

export type AuthorizationAnswer =
  | { decision: 'allow'; reason: string; subject: DecisionSubjectDto }
  | {
      decision: 'deny';
      reason: string;
      subject: DecisionSubjectDto | null;
      unavailable: boolean;
      /** With `authentication_too_old`: how recent (seconds) the person's sign-in must be. */
      maxAge?: number;
    };

const READ_CACHE_LIMIT = 10_000;

interface CachedAllow {
  answer: AuthorizationAnswer;
  expiresAt: number;
  credentialKind: ForwardedCredentialDto['kind'];
}
/** An allow's reason as identity words them (`organization_key`, `role:project-owner`); anything else is replaced. */
const ALLOW_REASON = /^[a-z][a-z0-9_:.-]{0,63}$/;

/**
 * Asks identity whether a credential may perform an action on a resource. Fails closed: connection
 * refused, timeout, any non-2xx, a malformed or unexpected body, a body over 64 KiB, an answer not
 * signed with this service's credential or not to this very question (see decision-binding) all
 * become a denial marked `unavailable`. Allows of read actions (and of questions asked as `readOnly`) may be reused for up to
 * a second, counted from when identity was asked, and concurrent asks of the same read share one request; writes always ask.
 */
export class AuthorizationClient {
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly readAllowCacheMs: number;
  private readonly readAllows = new Map<string, CachedAllow>();
  private readonly readsInFlight = new Map<string, { answer: Promise<AuthorizationAnswer>; askedAt: number; generation: number }>();
  /** Moves on every subject change and whenever the change stream opens or closes: an answer asked before it is not kept. */
  private generation = 0;
  private changesApplied = 0;
  private readonly subjectChanges: SubjectChangeFeed | undefined;
  private readonly authorization: string;
  private readonly serviceToken: string;
  private readonly path: string;
  private readonly audience: string | undefined;
  private readonly clock: () => number;

  constructor(options: AuthorizationClientOptions) {
    this.audience = options.audience;
    this.clock = options.clock ?? Date.now;
    const decisions = serviceUrl(options.identityUrl, '/v1/decisions');
    this.pool = new Pool(decisions.origin, { connections: options.connections ?? 32, pipelining: 1 });
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.readAllowCacheMs = Math.min(options.readAllowCacheMs ?? READ_ALLOW_REUSE_LIMIT_MS, READ_ALLOW_REUSE_LIMIT_MS);
    this.authorization = `Bearer ${options.serviceToken}`;
    this.serviceToken = options.serviceToken;
    this.path = decisions.pathname;
    if (options.followSubjectChanges && this.readAllowCacheMs > 0) {
      this.subjectChanges = new SubjectChangeFeed({
        identityUrl: options.identityUrl,
        serviceToken: options.serviceToken,
        opened: () => this.generation++,
        changed: (change) => this.forget(change),
        lost: () => this.forgetAll(),
      });
    }
  }

  /** How many subject changes this client has applied so far. */
  get subjectChangesApplied(): number {
    return this.changesApplied;
  }

  /** Whether allows are reused now: the cache is on and, when following subject changes, their stream is open. */
  get reusesAllows(): boolean {
    return this.readAllowCacheMs > 0 && (this.subjectChanges?.open ?? true);
  }

  /** Every answer, cached or asked, is counted by outcome (`authorization_decisions_total{side="asked"}`). */
  async ask(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    const answer = await this.answer(question);
    recordAuthorizationDecision('asked', answer.decision === 'allow' ? 'allow' : answer.unavailable ? 'unavailable' : 'deny');
    return answer;
  }

  private async answer(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    // Without the change stream open, identity is asked every time: a change could pass unheard.
    if (!this.reusesAllows || !mayReuseAllow(question)) return this.askIdentity(question);
    const cacheKey = cacheKeyOf(question);
    const now = this.clock();
    const generation = this.generation;
    const cached = this.readAllows.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.answer;
    // The same read asked within the cache window is joined: its answer is no older than a cached one.
    const inFlight = this.readsInFlight.get(cacheKey);
    if (inFlight && now - inFlight.askedAt < this.readAllowCacheMs && inFlight.generation === generation) return inFlight.answer;
    const asked = this.askIdentity(question);
    this.readsInFlight.set(cacheKey, { answer: asked, askedAt: now, generation });
    const answer = await asked;
    if (this.readsInFlight.get(cacheKey)?.answer === asked) this.readsInFlight.delete(cacheKey);
    // An allow asked before a subject change (or before the stream last opened) may be of the old state.
    if (answer.decision === 'allow' && generation === this.generation) {
      if (this.readAllows.size >= READ_CACHE_LIMIT) this.readAllows.clear();
      this.readAllows.set(cacheKey, { answer, expiresAt: now + this.readAllowCacheMs, credentialKind: question.credential.kind });
    }
    return answer;
  }

  /** Drops the allows a subject change touches (all of them when the change is not one this client can read). */
  private forget(change: SubjectChangeDto): void {
    this.generation++;
    this.changesApplied++;
    this.readsInFlight.clear();
    if (!isSubjectChange(change)) return this.readAllows.clear();
    const keyIds = new Set(change.keyIds);
    const people = new Set(change.personUids);
    for (const [cacheKey, cached] of this.readAllows) {
      if (touches(cached, keyIds, people, change.accessTokens)) this.readAllows.delete(cacheKey);
    }
  }

  private forgetAll(): void {
    this.generation++;
    this.readsInFlight.clear();
    this.readAllows.clear();
  }

  async close(): Promise<void> {
    await this.subjectChanges?.close();
    await this.pool.close();
  }

  private async askIdentity(question: AuthorizationQuestion): Promise<AuthorizationAnswer> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const nonce = randomBytes(18).toString('base64url');
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: this.path,
        headers: {
          authorization: this.authorization,
          'content-type': 'application/json',
          accept: 'application/json',
          ...outgoingTraceHeaders(),
        },
        body: JSON.stringify({
          credential: question.credential,
          action: question.action,
          resource: question.resource,
          nonce,
          ...(this.audience === undefined ? {} : { audience: this.audience }),
          ...(question.scope === undefined ? {} : { scope: question.scope }),
        }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: deadline,
      });
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump({ limit: DECISION_ANSWER_MAX_BYTES });
        return unavailable(`identity answered ${response.statusCode}`);
      }
      const body = await readAtMost(response.body, DECISION_ANSWER_MAX_BYTES, Number(response.headers['content-length'] ?? 0));
      if (!body) return unavailable('identity answered more than 64 KiB');
      if (!decisionSignatureMatches(this.serviceToken, body, header(response.headers[DECISION_SIGNATURE_HEADER]))) {
        return unavailable('the answer is not signed with this service’s credential');
      }
      return parseAnswer(body.toString('utf8'), expectedQuestion(question, nonce, this.audience));
    } catch (error) {
      const timedOut =
        deadline.aborted ||
        (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' ||
        (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
      return unavailable(timedOut ? 'identity did not answer in time' : 'identity is unreachable');
    }
  }
}

/** The body, unless it is (or declares itself) longer than `limit`: then it is dropped unread, and null. */
async function readAtMost(body: Readable, limit: number, declaredLength: number): Promise<Buffer | null> {
  if (declaredLength > limit) {
    body.on('error', () => undefined).destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    // Leaving the loop destroys the stream.
    if (length > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

function expectedQuestion(question: AuthorizationQuestion, nonce: string, audience: string | undefined): DecisionQuestionDto {
  const { organizationId, projectId } = question.resource;
  return {
    action: question.action,
    resource: { ...(organizationId ? { organizationId } : {}), ...(projectId ? { projectId } : {}) },
    credentialDigest: credentialDigest(question.credential),
    nonce,
    ...(audience === undefined ? {} : { audience }),
    ...(question.scope === undefined ? {} : { scope: question.scope }),
  };
}

function unavailable(reason: string): AuthorizationAnswer {
  return { decision: 'deny', reason, subject: null, unavailable: true };
}

/**
 * Anything but a well-formed allow or deny to `expected` is a denial. A denial's reason is passed on
 * only when it is one identity gives (DENIAL_REASONS), an allow's only in its short form; a denial's
 * `maxAge` only with `authentication_too_old` and within a day.
 */
export function parseAnswer(text: string, expected: DecisionQuestionDto): AuthorizationAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return unavailable('identity answered something that is not JSON');
  }
  if (typeof body !== 'object' || body === null) return unavailable('identity answered an unexpected body');
  const { decision, reason, subject, question, maxAge } = body as Record<string, unknown>;
  if (!(DECISIONS as readonly unknown[]).includes(decision) || typeof reason !== 'string') {
    return unavailable('identity answered an unknown decision');
  }
  if (!answersQuestion(question, expected)) return unavailable('the answer is to another question');
  const validSubject = isSubject(subject) ? subject : null;
  if (decision === 'allow') {
    if (!validSubject) return unavailable('identity allowed without a subject');
    return { decision: 'allow', reason: ALLOW_REASON.test(reason) ? reason : 'allowed', subject: validSubject };
  }
  const knownReason = (DENIAL_REASONS as readonly string[]).includes(reason) ? reason : 'denied';
  return {
    decision: 'deny',
    reason: knownReason,
    subject: validSubject,
    unavailable: false,
    ...(knownReason === AUTHENTICATION_TOO_OLD && isMaxAge(maxAge) ? { maxAge } : {}),
  };
}

function isMaxAge(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_FORMAL_WRITE_MAX_AGE_SECONDS;
}

function answersQuestion(question: unknown, expected: DecisionQuestionDto): boolean {
  if (typeof question !== 'object' || question === null) return false;
  const { action, resource, credentialDigest: digest, nonce, audience, scope } = question as Record<string, unknown>;
  if (typeof resource !== 'object' || resource === null) return false;
  const { organizationId, projectId } = resource as Record<string, unknown>;
  return (
    action === expected.action &&
    digest === expected.credentialDigest &&
    nonce === expected.nonce &&
    (audience ?? null) === (expected.audience ?? null) &&
    (scope ?? null) === (expected.scope ?? null) &&
    (organizationId ?? null) === (expected.resource.organizationId ?? null) &&
    (projectId ?? null) === (expected.resource.projectId ?? null)
  );
}

/** An agent's subject must name its supervisor (AGT-1): what it does is recorded under that person. */
function isSubject(value: unknown): value is DecisionSubjectDto {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, id, supervisorId } = value as Record<string, unknown>;
  if (kind === 'agent' && (typeof supervisorId !== 'string' || supervisorId.length === 0)) return false;
  return (SUBJECT_KINDS as readonly unknown[]).includes(kind) && typeof id === 'string' && id.length > 0;
}

function mayReuseAllow({ action, readOnly }: AuthorizationQuestion): boolean {
  return (readOnly === true || action.endsWith(':read')) && !ACTION_CATALOGUE[action].formal;
}

function cacheKeyOf(question: AuthorizationQuestion): string {
  const credential = createHash('sha256').update(`${question.credential.kind}:${question.credential.value}`).digest('base64url');
  return `${credential}|${question.action}|${question.resource.organizationId ?? ''}|${question.resource.projectId ?? ''}|${question.scope ?? ''}`;
}

function isSubjectChange(value: unknown): value is SubjectChangeDto {
  if (typeof value !== 'object' || value === null) return false;
  const { keyIds, personUids, accessTokens } = value as Record<string, unknown>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return strings(keyIds) && strings(personUids) && typeof accessTokens === 'boolean';
}

function touches(cached: CachedAllow, keyIds: Set<string>, people: Set<string>, accessTokens: boolean): boolean {
  if (accessTokens && cached.credentialKind === 'access_token') return true;
  const { subject } = cached.answer;
  if (!subject) return true;
  return keyIds.has(subject.id) || people.has(subject.id) || (subject.supervisorId !== undefined && people.has(subject.supervisorId));
}
