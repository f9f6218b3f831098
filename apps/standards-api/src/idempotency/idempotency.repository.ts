import { Injectable } from '@nestjs/common';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';

export interface IdempotencyRecord {
  requestHash: string;
  /** Null while the first request is still running (or when it died before its answer was stored). */
  status: number | null;
  /** The first request's write committed (its answer may still be missing). */
  performed: boolean;
  body: unknown;
  /** Claimed longer ago than the takeover time: a request that has not stored its answer by then never will. */
  abandoned: boolean;
}

/** How often a request tries to claim a key whose record went away between its insert and its read. */
const CLAIM_ATTEMPTS = 3;

/** One request's claim of a key: the record it inserted, told from a later claim of the same key by `claimId`. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  claimId: string;
}

/** Every query of idempotency records. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the key for this request; returns null when claimed, or the record already there. A record met by the insert
   * may be gone by the read (its request failed and released it): the key is then claimed again, a few times at most,
   * after which it is answered as in progress (other requests keep claiming and releasing it).
   */
  async claim(claim: IdempotencyClaim, requestHash: string, abandonAfterSeconds: number): Promise<IdempotencyRecord | null> {
    const { scope, key, claimId } = claim;
    // A claim left pending by a request that died is taken over after a while, unless its write committed.
    await this.dataSource.query(
      `DELETE FROM idempotency_record WHERE scope = $1 AND idempotency_key = $2 AND status IS NULL AND performed_at IS NULL
         AND created_at < now() - make_interval(secs => $3)`,
      [scope, key, abandonAfterSeconds],
    );
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const inserted: unknown[] = await this.dataSource.query(
        `INSERT INTO idempotency_record (scope, idempotency_key, request_hash, claim_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING scope`,
        [scope, key, requestHash, claimId],
      );
      if (inserted.length > 0) return null;
      const rows: IdempotencyRecord[] = await this.dataSource.query(
        `SELECT request_hash AS "requestHash", status, performed_at IS NOT NULL AS performed, body,
                created_at < now() - make_interval(secs => $3) AS abandoned FROM idempotency_record
          WHERE scope = $1 AND idempotency_key = $2`,
        [scope, key, abandonAfterSeconds],
      );
      if (rows[0]) return rows[0];
    }
    return { requestHash, status: null, performed: false, body: null, abandoned: false };
  }

  /**
   * Inside the write's transaction: the claim's write is done once that transaction commits. False when the key is no
   * longer this request's claim (a retry took it over while this one looked abandoned): the write must not commit.
   */
  async markPerformed(manager: EntityManager, claim: IdempotencyClaim): Promise<boolean> {
    // For UPDATE, TypeORM's query() answers [rows, affectedCount].
    const [, marked]: [unknown[], number] = await manager.query(
      `UPDATE idempotency_record SET performed_at = coalesce(performed_at, now())
        WHERE scope = $1 AND idempotency_key = $2 AND claim_id = $3`,
      [claim.scope, claim.key, claim.claimId],
    );
    return marked > 0;
  }

  async complete(claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      'UPDATE idempotency_record SET status = $4, body = $5 WHERE scope = $1 AND idempotency_key = $2 AND claim_id = $3',
      [claim.scope, claim.key, claim.claimId, status, JSON.stringify(body ?? null)],
    );
  }

  /** Removes the records claimed more than `hours` ago, answered or not: their keys are forgotten. */
  async purgeOlderThan(hours: number): Promise<void> {
    await maintenanceTransaction(this.dataSource, (manager) =>
      manager.query('DELETE FROM idempotency_record WHERE created_at < now() - make_interval(hours => $1)', [hours]),
    );
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM idempotency_record WHERE scope = $1 AND idempotency_key = $2 AND claim_id = $3 AND status IS NULL AND performed_at IS NULL',
      [claim.scope, claim.key, claim.claimId],
    );
  }
}
