import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface IdempotencyRecord {
  requestHash: string;
  /** Null while the first request is still running (or when it died before its answer was stored). */
  status: number | null;
  /** The first request's write committed (its answer may still be missing). */
  performed: boolean;
  body: unknown;
  createdAt: Date;
}

/** Every query of idempotency records. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims the key for this request; returns null when claimed, or the record already there. */
  async claim(scope: string, key: string, requestHash: string, abandonAfterSeconds: number): Promise<IdempotencyRecord | null> {
    // A claim left pending by a request that died is taken over after a while, unless its write committed.
    await this.dataSource.query(
      `DELETE FROM idempotency_record WHERE scope = $1 AND idempotency_key = $2 AND status IS NULL AND performed_at IS NULL
         AND created_at < now() - make_interval(secs => $3)`,
      [scope, key, abandonAfterSeconds],
    );
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_record (scope, idempotency_key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING scope`,
      [scope, key, requestHash],
    );
    if (inserted.length > 0) return null;
    const rows: IdempotencyRecord[] = await this.dataSource.query(
      `SELECT request_hash AS "requestHash", status, performed_at IS NOT NULL AS performed, body, created_at AS "createdAt" FROM idempotency_record
        WHERE scope = $1 AND idempotency_key = $2`,
      [scope, key],
    );
    return rows[0] ?? null;
  }

  /** Inside the write's transaction: the claim's write is done once that transaction commits. */
  async markPerformed(manager: EntityManager, scope: string, key: string): Promise<void> {
    await manager.query(
      'UPDATE idempotency_record SET performed_at = now() WHERE scope = $1 AND idempotency_key = $2 AND performed_at IS NULL',
      [scope, key],
    );
  }

  async complete(scope: string, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query('UPDATE idempotency_record SET status = $3, body = $4 WHERE scope = $1 AND idempotency_key = $2', [
      scope,
      key,
      status,
      JSON.stringify(body ?? null),
    ]);
  }

  /** Removes the records claimed more than `hours` ago, answered or not: their keys are forgotten. */
  async purgeOlderThan(hours: number): Promise<void> {
    await this.dataSource.query('DELETE FROM idempotency_record WHERE created_at < now() - make_interval(hours => $1)', [hours]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM idempotency_record WHERE scope = $1 AND idempotency_key = $2 AND status IS NULL AND performed_at IS NULL',
      [scope, key],
    );
  }
}
