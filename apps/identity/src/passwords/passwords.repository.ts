import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface PasswordRow {
  uid: string;
  login_email: string;
  password_hash: string;
  failed_attempts: number;
  /** Set while the account is locked. */
  locked_until: Date | null;
}

export interface PasswordSetupRow {
  uid: string;
  login_email: string;
  expires_at: Date;
}

/** Every query of passwords, lockouts and password-setup links. */
@Injectable()
export class PasswordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByLoginEmail(email: string): Promise<PasswordRow | null> {
    const rows: PasswordRow[] = await this.dataSource.query(
      `SELECT uid, login_email, password_hash, failed_attempts, CASE WHEN locked_until > now() THEN locked_until END AS locked_until
         FROM user_password WHERE lower(login_email) = lower($1)`,
      [email],
    );
    return rows[0] ?? null;
  }

  /** Whether a live unified user has this email (to tell "no password yet" from "unknown"). */
  async unifiedUserHasEmail(email: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM unified_user WHERE lower(email) = lower($1) AND merged_into IS NULL LIMIT 1',
      [email],
    );
    return rows.length > 0;
  }

  /** Counts a failed attempt (a lock that ran out starts a new count) and locks at `maxAttempts`; one statement, so concurrent failures all count. */
  async recordFailure(uid: string, maxAttempts: number, lockSeconds: number): Promise<{ failed_attempts: number; locked_until: Date | null }> {
    const rows: { failed_attempts: number; locked_until: Date | null }[] = await this.dataSource.query(
      `WITH counted AS (
         SELECT uid, CASE WHEN locked_until IS NOT NULL AND locked_until <= now() THEN 1 ELSE failed_attempts + 1 END AS attempts
           FROM user_password WHERE uid = $1 FOR UPDATE
       ), changed AS (
         UPDATE user_password p SET failed_attempts = c.attempts,
                locked_until = CASE WHEN c.attempts >= $2 THEN now() + make_interval(secs => $3::int) END
           FROM counted c WHERE p.uid = c.uid
         RETURNING p.failed_attempts, p.locked_until
       ) SELECT * FROM changed`,
      [uid, maxAttempts, lockSeconds],
    );
    return rows[0]!;
  }

  async clearFailures(uid: string): Promise<void> {
    await this.dataSource.query('UPDATE user_password SET failed_attempts = 0, locked_until = NULL WHERE uid = $1 AND failed_attempts > 0', [uid]);
  }

  /** The login email another user already signs in with, if any. */
  async loginEmailTakenByOther(email: string, uid: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM user_password WHERE lower(login_email) = lower($1) AND uid <> $2', [email, uid]);
    return rows.length > 0;
  }

  /** Registries the user appears in (mirror records and app links). */
  async registriesOf(uid: string): Promise<string[]> {
    const rows: { registry_id: string }[] = await this.dataSource.query(
      'SELECT registry_id FROM user_mirror WHERE uid = $1 UNION SELECT registry_id FROM app_link WHERE uid = $1',
      [uid],
    );
    return rows.map((row) => row.registry_id);
  }

  /** A new setup link; earlier unused links of the user stop working. */
  async insertSetup(
    manager: EntityManager,
    setup: { tokenHash: Buffer; uid: string; loginEmail: string; createdBy: string; ttlSeconds: number },
  ): Promise<{ expires_at: Date }> {
    await manager.query('UPDATE password_setup SET expires_at = now() WHERE uid = $1 AND used_at IS NULL AND expires_at > now()', [setup.uid]);
    const rows: { expires_at: Date }[] = await manager.query(
      `INSERT INTO password_setup (token_hash, uid, login_email, created_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::int)) RETURNING expires_at`,
      [setup.tokenHash, setup.uid, setup.loginEmail, setup.createdBy, setup.ttlSeconds],
    );
    return rows[0]!;
  }

  async findUsableSetup(tokenHash: Buffer): Promise<PasswordSetupRow | null> {
    const rows: PasswordSetupRow[] = await this.dataSource.query(
      'SELECT uid, login_email, expires_at FROM password_setup WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Spends the link, once: the second of two concurrent uses finds nothing. */
  async spendSetup(manager: EntityManager, tokenHash: Buffer): Promise<PasswordSetupRow | null> {
    const rows: PasswordSetupRow[] = await manager.query(
      `WITH spent AS (
         UPDATE password_setup SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING uid, login_email, expires_at
       ) SELECT * FROM spent`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async upsertPassword(manager: EntityManager, uid: string, loginEmail: string, passwordHash: string): Promise<void> {
    await manager.query(
      `INSERT INTO user_password (uid, login_email, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (uid) DO UPDATE SET login_email = EXCLUDED.login_email, password_hash = EXCLUDED.password_hash,
         failed_attempts = 0, locked_until = NULL, updated_at = now()`,
      [uid, loginEmail, passwordHash],
    );
  }
}
