import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IdempotencyRepository } from './idempotency.repository';

interface Claim {
  scope: string;
  key: string;
}

const claims = new AsyncLocalStorage<Claim>();

/**
 * The claim of the keyed request under way, for the writes it makes: each marks the claim done in its
 * own transaction, so "written" and "the key's write is done" commit together or not at all.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly records: IdempotencyRepository) {}

  /** Runs a keyed request's handler with its claim known to the writes it makes. */
  runClaimed<T>(claim: Claim, handler: () => Promise<T>): Promise<T> {
    return claims.run(claim, handler);
  }

  /** Inside a write's transaction: a no-op unless a keyed request makes it. */
  async markPerformed(manager: EntityManager): Promise<void> {
    const claim = claims.getStore();
    if (claim) await this.records.markPerformed(manager, claim.scope, claim.key);
  }
}
