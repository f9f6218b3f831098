import { Injectable } from '@nestjs/common';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';

/** A password-setup link as stored (its token only as a hash). */
export interface PasswordSetup {
  uid: string;
  loginEmail: string;
  expiresAt: Date;
  /** The registry whose record the link was issued for (null for links issued before it was kept). */
  registryId: string | null;
}

const SETUP_COLUMNS = 'uid, login_email AS "loginEmail", expires_at AS "expiresAt", registry_id AS "registryId"';

/** A link nobody can use any more (spent, voided or expired) is kept this long, then purged. */
export const ENDED_LINK_KEPT_DAYS = 1;

/** Every query of `password_setup`: issuing, spending, voiding and purging password-setup links. */
@Injectable()
export class PasswordLinksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Holds the issuing key and the record's app until the transaction ends, so a revocation or a deletion
   * committing meanwhile waits and then voids the new link too; false when either is gone already.
   */
  async lockIssuer(
    manager: EntityManager,
    keyId: string,
    registryId: string,
  ): Promise<{ keyLive: boolean; appLive: boolean; organizationId: string | null }> {
    const keys: unknown[] = await manager.query('SELECT 1 FROM api_key WHERE id = $1 AND revoked_at IS NULL FOR SHARE', [keyId]);
    const apps: { organizationId: string | null }[] = await manager.query(
      'SELECT organization_id AS "organizationId" FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL FOR SHARE',
      [registryId],
    );
    return { keyLive: keys.length > 0, appLive: apps.length > 0, organizationId: apps[0]?.organizationId ?? null };
  }

  /**
   * A new setup link; earlier unused links of the user stop working. Links of one user are written one at a time, so
   * of two asked for at once the later one ends the earlier (each would otherwise miss the other's, uncommitted).
   */
  async insert(
    manager: EntityManager,
    setup: {
      tokenHash: Buffer;
      uid: string;
      loginEmail: string;
      issuedByKey: string;
      createdBy: string;
      ttlSeconds: number;
      registryId: string;
    },
  ): Promise<{ expiresAt: Date }> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('password-links:' || $1, 0))`, [setup.uid]);
    await manager.query('UPDATE password_setup SET expires_at = now() WHERE uid = $1 AND used_at IS NULL AND expires_at > now()', [
      setup.uid,
    ]);
    const rows: { expiresAt: Date }[] = await manager.query(
      `INSERT INTO password_setup (token_hash, uid, login_email, issued_by_key, created_by, expires_at, registry_id)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::int), $7) RETURNING expires_at AS "expiresAt"`,
      [setup.tokenHash, setup.uid, setup.loginEmail, setup.issuedByKey, setup.createdBy, setup.ttlSeconds, setup.registryId],
    );
    return rows[0]!;
  }

  async findUsable(tokenHash: Buffer): Promise<PasswordSetup | null> {
    const rows: PasswordSetup[] = await this.dataSource.query(
      `SELECT ${SETUP_COLUMNS} FROM password_setup WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Spends the link, once: the second of two concurrent uses finds nothing. */
  async spend(manager: EntityManager, tokenHash: Buffer): Promise<PasswordSetup | null> {
    const rows: PasswordSetup[] = await manager.query(
      `WITH spent AS (
         UPDATE password_setup SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING ${SETUP_COLUMNS}
       ) SELECT * FROM spent`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Voids the unspent links the key issued (each would let its holder set a user's password); how many. */
  async voidIssuedByKey(manager: EntityManager, keyId: string): Promise<number> {
    // For UPDATE, TypeORM's query() answers [rows, affectedCount].
    const [, voided]: [unknown[], number] = await manager.query(
      'UPDATE password_setup SET expires_at = now() WHERE issued_by_key = $1 AND used_at IS NULL AND expires_at > now()',
      [keyId],
    );
    return voided;
  }

  /** Voids the unspent links issued for the registry's records, whichever key issued them; how many. */
  async voidForRegistry(manager: EntityManager, registryId: string): Promise<number> {
    const [, voided]: [unknown[], number] = await manager.query(
      'UPDATE password_setup SET expires_at = now() WHERE registry_id = $1 AND used_at IS NULL AND expires_at > now()',
      [registryId],
    );
    return voided;
  }

  /** Removes the links that ended (spent, voided or expired) more than ENDED_LINK_KEPT_DAYS ago; how many. */
  async purgeEnded(): Promise<number> {
    const rows: unknown[] = await maintenanceTransaction(this.dataSource, (manager) =>
      manager.query(
        `WITH purged AS (
           DELETE FROM password_setup WHERE coalesce(used_at, expires_at) < now() - make_interval(days => $1) RETURNING 1
         ) SELECT * FROM purged`,
        [ENDED_LINK_KEPT_DAYS],
      ),
    );
    return rows.length;
  }
}
