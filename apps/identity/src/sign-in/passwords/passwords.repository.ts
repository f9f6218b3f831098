import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { databaseNow } from '@stdreg/server-kit/database';
import { APP_EMAIL_SCOPE } from '../../people/users/users.repository.sql';

/** The users with a mirror record or an app link in a registry of the `scope` CTE's scopes. */
const USERS_OF_SCOPE = `SELECT m.uid FROM user_mirror m JOIN registered_app r ON r.registry_id = m.registry_id WHERE ${APP_EMAIL_SCOPE} IN (SELECT value FROM scope)
   UNION SELECT l.uid FROM app_link l JOIN registered_app r ON r.registry_id = l.registry_id WHERE ${APP_EMAIL_SCOPE} IN (SELECT value FROM scope)`;

export interface StoredPassword {
  uid: string;
  loginEmail: string;
  passwordHash: string;
  failedAttempts: number;
  /** Set while the account is locked. */
  lockedUntil: Date | null;
}

/** A failed attempt counted: the count now, and until when the account is locked (null while it is not). */
export interface FailedAttempts {
  failedAttempts: number;
  lockedUntil: Date | null;
}

/** Where the page that ends a password setup leads back to. */
export interface SetupApp {
  name: string;
  url: string;
}

/** Every query of passwords and lockouts (the links that set them: PasswordLinksRepository). */
@Injectable()
export class PasswordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The passwords signing in with this email: those of users known to the app of `clientId` (by a
   * mirror record or an app link in a registry of its organization) when there are any, otherwise
   * every one. More than one means the email alone cannot say who signs in.
   */
  async findByLoginEmail(email: string, clientId: string | null): Promise<StoredPassword[]> {
    const rows: (StoredPassword & { inScope: boolean })[] = await this.dataSource.query(
      `WITH scope AS (SELECT ${APP_EMAIL_SCOPE} AS value FROM registered_app r WHERE r.client_id = $2 AND r.deleted_at IS NULL)
       SELECT p.uid, p.login_email AS "loginEmail", p.password_hash AS "passwordHash", p.failed_attempts AS "failedAttempts",
              CASE WHEN p.locked_until > now() THEN p.locked_until END AS "lockedUntil",
              p.uid IN (${USERS_OF_SCOPE}) AS "inScope"
         FROM user_password p WHERE lower(p.login_email) = lower($1)
        ORDER BY p.uid`,
      [email, clientId],
    );
    const inScope = rows.filter((row) => row.inScope);
    return (inScope.length > 0 ? inScope : rows).map(({ inScope: _inScope, ...password }) => password);
  }

  /** Whether a live unified user has this email (to tell "no password yet" from "unknown"). */
  async unifiedUserHasEmail(email: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM unified_user WHERE lower(email) = lower($1) AND merged_into IS NULL LIMIT 1',
      [email],
    );
    return rows.length > 0;
  }

  /**
   * The account's password, lock (null while it is not locked) and consecutive failures, its row held until the
   * transaction ends: the password checks of one account run one at a time. Null when the account has no password (any more).
   */
  async lockAccount(
    manager: EntityManager,
    uid: string,
  ): Promise<{ passwordHash: string; lockedUntil: Date | null; failedAttempts: number } | null> {
    const rows: { passwordHash: string; lockedUntil: Date | null; failedAttempts: number }[] = await manager.query(
      `SELECT password_hash AS "passwordHash", CASE WHEN locked_until > now() THEN locked_until END AS "lockedUntil",
              failed_attempts AS "failedAttempts"
         FROM user_password WHERE uid = $1 FOR UPDATE`,
      [uid],
    );
    return rows[0] ?? null;
  }

  /**
   * Counts a failed attempt; the count runs on across locks that ran out and ends only with a right password or a new
   * one. Every `maxAttempts`-th failure locks: `lockSeconds` the first time, twice as long each time after, a day at
   * most. One statement, so concurrent failures all count.
   */
  async recordFailure(manager: EntityManager, uid: string, maxAttempts: number, lockSeconds: number): Promise<FailedAttempts> {
    const rows: FailedAttempts[] = await manager.query(
      `WITH counted AS (
         SELECT uid, failed_attempts + 1 AS attempts FROM user_password WHERE uid = $1 FOR UPDATE
       ), changed AS (
         UPDATE user_password p SET failed_attempts = c.attempts,
                locked_until = CASE WHEN c.attempts % $2 = 0
                  THEN now() + make_interval(secs => least($3::double precision * power(2, c.attempts / $2 - 1), 86400)) END
           FROM counted c WHERE p.uid = c.uid
         RETURNING p.failed_attempts AS "failedAttempts", p.locked_until AS "lockedUntil"
       ) SELECT * FROM changed`,
      [uid, maxAttempts, lockSeconds],
    );
    return rows[0]!;
  }

  /** The database's clock: a sign-in is stamped by it (auth_time), so that any replica measures its age alike. */
  now(manager: EntityManager = this.dataSource.manager): Promise<Date> {
    return databaseNow(manager);
  }

  async clearFailures(manager: EntityManager, uid: string): Promise<void> {
    await manager.query('UPDATE user_password SET failed_attempts = 0, locked_until = NULL WHERE uid = $1 AND failed_attempts > 0', [uid]);
  }

  /** Holds the email (in any case) until the transaction ends: passwords of one email are set one at a time. */
  async lockLoginEmail(manager: EntityManager, email: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('login-email:' || lower($1), 0))`, [email]);
  }

  /** Whether another user of one of `uid`'s organizations already signs in with this email (sign-in through their apps would be ambiguous). */
  async loginEmailTakenByOther(email: string, uid: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH scope AS (
         SELECT ${APP_EMAIL_SCOPE} AS value FROM registered_app r
          WHERE r.registry_id IN (SELECT registry_id FROM user_mirror WHERE uid = $2 UNION SELECT registry_id FROM app_link WHERE uid = $2)
       )
       SELECT 1 FROM user_password p WHERE lower(p.login_email) = lower($1) AND p.uid <> $2 AND p.uid IN (${USERS_OF_SCOPE})`,
      [email, uid],
    );
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

  /** The live app of a registry, as the way back: its name and the origin of its first redirect URI. */
  async setupApp(registryId: string): Promise<SetupApp | null> {
    const rows: { name: string; redirect_uris: string[] }[] = await this.dataSource.query(
      'SELECT name, redirect_uris FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL',
      [registryId],
    );
    const app = rows[0];
    const first = app?.redirect_uris[0];
    if (!app || !first) return null;
    return { name: app.name, url: new URL(first).origin };
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
