import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainError } from '@stdreg/server-kit';
import { actorOf, type Authorization } from '../authorization/authorize.decorator';
import { CHALLENGE_LIFETIME_MS, confirmationTokenSha256, newConfirmationToken } from './confirmation-token';
import { tokenExpired, tokenForOtherRequest, tokenNotYours, tokenUsed } from './confirmations.errors';
import { ConfirmationsRepository } from './confirmations.repository';

/** What a token is for: one action on one project, by one subject. */
export interface ConfirmationScope {
  action: string;
  projectId: string;
  auth: Authorization;
}

export type Redemption<Binding> = { ok: true; binding: Binding } | { ok: false; error: DomainError };

/**
 * The two-step confirmation of formal writes: a challenge stores a single-use token bound to the
 * caller, the action, the project and what was shown (`binding`); the second call redeems it.
 */
@Injectable()
export class ConfirmationsService {
  constructor(private readonly challenges: ConfirmationsRepository) {}

  /** Stores a challenge; the token is returned to be shown once. */
  async issue(scope: ConfirmationScope, binding: object): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + CHALLENGE_LIFETIME_MS);
    const { token, sha256 } = newConfirmationToken();
    await this.challenges.insert({
      tokenSha256: sha256,
      action: scope.action,
      projectId: scope.projectId,
      subject: actorOf(scope.auth),
      binding: { ...binding },
      expiresAt,
    });
    return { token, expiresAt };
  }

  /**
   * Checks and spends the token inside the write's transaction (the row stays locked until it ends).
   * A token of another subject, action or project, or unknown, is refused unspent; so is one presented
   * with a request that `matches` rejects (`what` names what it confirms). A refusal is returned, not
   * thrown, so that the caller can commit what it decided.
   */
  async redeem<Binding>(
    manager: EntityManager,
    token: string,
    scope: ConfirmationScope,
    what: string,
    matches: (binding: Binding) => boolean,
  ): Promise<Redemption<Binding>> {
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
    if (challenge.expiresAt.getTime() <= Date.now()) return { ok: false, error: tokenExpired() };
    // The binding was written by issue() for this action, whose caller reads it back as its own type.
    const binding = challenge.binding as Binding;
    if (!matches(binding)) return { ok: false, error: tokenForOtherRequest(what) };
    await this.challenges.spend(manager, challenge.tokenSha256);
    return { ok: true, binding };
  }
}
