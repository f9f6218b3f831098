import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface ConfirmationChallengeRow {
  token_sha256: string;
  action: string;
  project_id: string;
  subject: string;
  binding: Record<string, unknown>;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Every query of confirmation challenges. */
@Injectable()
export class ConfirmationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(challenge: Omit<ConfirmationChallengeRow, 'created_at' | 'used_at'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO confirmation_challenge (token_sha256, action, project_id, subject, binding, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        challenge.token_sha256,
        challenge.action,
        challenge.project_id,
        challenge.subject,
        JSON.stringify(challenge.binding),
        challenge.expires_at,
      ],
    );
  }

  async lock(manager: EntityManager, tokenSha256: string): Promise<ConfirmationChallengeRow | null> {
    const rows: ConfirmationChallengeRow[] = await manager.query(
      'SELECT * FROM confirmation_challenge WHERE token_sha256 = $1 FOR UPDATE',
      [tokenSha256],
    );
    return rows[0] ?? null;
  }

  async spend(manager: EntityManager, tokenSha256: string): Promise<void> {
    await manager.query('UPDATE confirmation_challenge SET used_at = now() WHERE token_sha256 = $1 AND used_at IS NULL', [tokenSha256]);
  }
}
