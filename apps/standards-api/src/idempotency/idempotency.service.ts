import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { inProgress } from './idempotency.errors';
import { IdempotencyRepository, type IdempotencyClaim } from './idempotency.repository';

const claims = new AsyncLocalStorage<IdempotencyClaim>();

/**
 * The claim of the keyed request under way, for the writes it makes: each marks the claim done in its
 * own transaction, so "written" and "the key's write is done" commit together or not at all.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly records: IdempotencyRepository) {}

  /** Runs a keyed request's handler with its claim known to the writes it makes. */
  runClaimed<T>(claim: IdempotencyClaim, handler: () => Promise<T>): Promise<T> {
    return claims.run(claim, handler);
  }

  /**
   * Inside a write's transaction: a no-op unless a keyed request makes it. A request whose claim a retry took over
   * (it ran past the takeover time) is refused, so its write rolls back and the retry's is the key's only one.
   */
  async markPerformed(manager: EntityManager): Promise<void> {
    const claim = claims.getStore();
    if (claim && !(await this.records.markPerformed(manager, claim))) throw inProgress();
  }
}
