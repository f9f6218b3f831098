import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DomainError } from '@stdreg/server-kit';
import { actorOf, type Caller } from '../callers/caller';
import { CHALLENGE_LIFETIME_MS, confirmationTokenSha256, newConfirmationToken } from './confirmation-token';
import { confirmationRequired, tokenExpired, tokenForOtherRequest, tokenNotYours, tokenUsed } from './confirmations.errors';
import { ConfirmationsRepository } from './confirmations.repository';

/** What a token is for: one action on one project, by one subject. */
export interface ConfirmationScope {
  action: string;
  projectId: string;
  auth: Caller;
}

/** A write's result, or a refusal that still lets the transaction commit what it decided (a spent token). */
export type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: DomainError };

export const written = <Result>(value: Result): Outcome<Result> => ({ ok: true, value });
export const refused = <Result>(error: DomainError): Outcome<Result> => ({ ok: false, error });

/**
 * A formal write confirmed in two steps: what differs from one write to another. `Binding` is what
 * the token confirms (stored with it); `Prepared` is what the second call computes before redeeming it.
 */
export interface ConfirmedWrite<Binding extends object, Prepared, Result> {
  scope: ConfirmationScope;
  /** The token the caller sent back, if any. */
  token: string | undefined;
  /** Names the write in the 428 ("Activation"). */
  what: string;
  /** Names what a token confirms, for one presented with another request ("scenario, revision or effective time"). */
  confirms: string;
  /** First call: what the caller is asked to confirm (without `expiresAt`) and what the token binds; throws a refusal. */
  challenge(): Promise<{ shown: object; binding: Binding }>;
  /** Second call, in the write's transaction before the token is redeemed: locks and computes; throws a refusal. */
  prepare(manager: EntityManager): Promise<Prepared>;
  /** Whether the token's binding confirms this request. */
  matches(bound: Binding, prepared: Prepared): boolean;
  /** Second call, after the token is spent: the write, or a refusal (returned, so that the spend commits). */
  write(manager: EntityManager, bound: Binding, prepared: Prepared): Promise<Outcome<Result>>;
}

/**
 * The two-step confirmation of formal writes: a challenge stores a single-use token bound to the
 * caller, the action, the project and what was shown (`binding`); the second call redeems it.
 */
@Injectable()
export class ConfirmationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly challenges: ConfirmationsRepository,
  ) {}

  /**
   * Without a token: throws the 428 that carries the challenge and a fresh token. With it: prepares,
   * redeems the token and writes, in one transaction; a refusal that spends the token still commits that.
   */
  async confirmedWrite<Binding extends object, Prepared, Result>(step: ConfirmedWrite<Binding, Prepared, Result>): Promise<Result> {
    const token = step.token;
    if (token === undefined) {
      const { shown, binding } = await step.challenge();
      const issued = await this.issue(step.scope, binding);
      throw confirmationRequired(step.what, { ...shown, expiresAt: issued.expiresAt.toISOString() }, issued.token);
    }
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<Result>> => {
      const prepared = await step.prepare(manager);
      const redeemed = await this.redeem<Binding>(manager, token, step.scope, step.confirms, (bound) => step.matches(bound, prepared));
      if (!redeemed.ok) return redeemed;
      return step.write(manager, redeemed.binding, prepared);
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Stores a challenge; the token is returned to be shown once. */
  private async issue(scope: ConfirmationScope, binding: object): Promise<{ token: string; expiresAt: Date }> {
    const { token, sha256 } = newConfirmationToken();
    const expiresAt = await this.challenges.insert({
      tokenSha256: sha256,
      action: scope.action,
      projectId: scope.projectId,
      subject: actorOf(scope.auth),
      binding: { ...binding },
      lifetimeMs: CHALLENGE_LIFETIME_MS,
    });
    return { token, expiresAt };
  }

  /**
   * Checks and spends the token inside the write's transaction (the row stays locked until it ends).
   * A token of another subject, action or project, or unknown, is refused unspent; so is one presented
   * with a request that `matches` rejects (`what` names what it confirms).
   */
  private async redeem<Binding>(
    manager: EntityManager,
    token: string,
    scope: ConfirmationScope,
    what: string,
    matches: (binding: Binding) => boolean,
  ): Promise<{ ok: true; binding: Binding } | { ok: false; error: DomainError }> {
    const challenge = await this.challenges.lock(manager, confirmationTokenSha256(token));
    if (
      !challenge ||
      challenge.subject !== actorOf(scope.auth) ||
      challenge.action !== scope.action ||
      challenge.projectId !== scope.projectId
    ) {
      return { ok: false, error: tokenNotYours() };
    }
    if (challenge.usedAt !== null) return { ok: false, error: tokenUsed() };
    if (challenge.expired) return { ok: false, error: tokenExpired() };
    // The binding was written by issue() for this action, whose caller reads it back as its own type.
    const binding = challenge.binding as Binding;
    if (!matches(binding)) return { ok: false, error: tokenForOtherRequest(what) };
    await this.challenges.spend(manager, challenge.tokenSha256);
    return { ok: true, binding };
  }
}
