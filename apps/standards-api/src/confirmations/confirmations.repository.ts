import { Injectable } from '@nestjs/common';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';

export interface ConfirmationChallenge {
  tokenSha256: string;
  action: string;
  projectId: string;
  subject: string;
  binding: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
  /** Whether `expiresAt` has passed by the database's clock when the row was locked. */
  expired: boolean;
  usedAt: Date | null;
}

export type NewConfirmationChallenge = Omit<ConfirmationChallenge, 'createdAt' | 'expiresAt' | 'expired' | 'usedAt'> & {
  lifetimeMs: number;
};

/** Every query of confirmation challenges. */
@Injectable()
export class ConfirmationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores a challenge that ends `lifetimeMs` from now by the database's clock; answers that end. */
  async insert(challenge: NewConfirmationChallenge): Promise<Date> {
    const rows: { expiresAt: Date }[] = await this.dataSource.query(
      `INSERT INTO confirmation_challenge (token_sha256, action, project_id, subject, binding, expires_at)
       VALUES ($1, $2, $3, $4, $5, clock_timestamp() + $6 * interval '1 millisecond') RETURNING expires_at AS "expiresAt"`,
      [
        challenge.tokenSha256,
        challenge.action,
        challenge.projectId,
        challenge.subject,
        JSON.stringify(challenge.binding),
        challenge.lifetimeMs,
      ],
    );
    return rows[0]!.expiresAt;
  }

  /** Removes the challenges spent or expired more than `days` ago: their tokens answer as unknown ones. */
  async purgeEnded(days: number): Promise<void> {
    await maintenanceTransaction(this.dataSource, (manager) =>
      manager.query('DELETE FROM confirmation_challenge WHERE coalesce(used_at, expires_at) < now() - make_interval(days => $1)', [days]),
    );
  }

  async lock(manager: EntityManager, tokenSha256: string): Promise<ConfirmationChallenge | null> {
    const rows: ConfirmationChallenge[] = await manager.query(
      `SELECT token_sha256 AS "tokenSha256", action, project_id AS "projectId", subject, binding, created_at AS "createdAt",
         expires_at AS "expiresAt", expires_at <= clock_timestamp() AS expired, used_at AS "usedAt"
         FROM confirmation_challenge WHERE token_sha256 = $1 FOR UPDATE`,
      [tokenSha256],
    );
    return rows[0] ?? null;
  }

  async spend(manager: EntityManager, tokenSha256: string): Promise<void> {
    await manager.query('UPDATE confirmation_challenge SET used_at = now() WHERE token_sha256 = $1 AND used_at IS NULL', [tokenSha256]);
  }
}
