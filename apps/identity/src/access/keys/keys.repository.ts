import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { KeyClass } from '@stdreg/contracts';
import { AGENT_SUPERVISOR } from '../callers/key-credentials.repository.sql';
import type { SubjectChangeWrite } from '../subject-changes/subject-changes';

/** An API key as listed: its current secret's prefix, never a secret. */
export interface ApiKey {
  id: string;
  name: string;
  keyClass: KeyClass;
  organizationId: string | null;
  maxApps: number;
  createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  prefix: string;
  previousExpiresAt: Date | null;
  registryIds: string[];
  /** For an agent's key: its supervisor's uid, or the survivor's when that person was merged since. */
  agentSupervisorUid: string | null;
}

const KEY_COLUMNS = `
  k.id, k.name, k.class AS "keyClass", k.organization_id AS "organizationId", k.max_apps AS "maxApps",
  k.created_at AS "createdAt", k.rotated_at AS "rotatedAt", k.revoked_at AS "revokedAt",
  (SELECT s.prefix FROM api_key_secret s WHERE s.key_id = k.id AND s.expires_at IS NULL) AS prefix,
  (SELECT max(s.expires_at) FROM api_key_secret s WHERE s.key_id = k.id AND s.expires_at > now()) AS "previousExpiresAt",
  ARRAY(SELECT b.registry_id FROM key_registry_binding b WHERE b.key_id = k.id ORDER BY b.registry_id) AS "registryIds",
  ${AGENT_SUPERVISOR}`;

/** Every query of API keys and their secrets. */
@Injectable()
export class KeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(id: string, manager: EntityManager = this.dataSource.manager): Promise<ApiKey | null> {
    const rows: ApiKey[] = await manager.query(`SELECT ${KEY_COLUMNS} FROM api_key k WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  }

  async list(options: { keyClass?: KeyClass; afterId?: string; limit: number }): Promise<ApiKey[]> {
    return this.dataSource.query(
      `SELECT ${KEY_COLUMNS} FROM api_key k
        WHERE ($1::text IS NULL OR k.class = $1) AND ($2::uuid IS NULL OR k.id > $2)
        ORDER BY k.id LIMIT $3`,
      [options.keyClass ?? null, options.afterId ?? null, options.limit],
    );
  }

  /** Whether the organization exists (a key may name only an existing one). */
  async organizationExists(manager: EntityManager, organizationId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM organization WHERE id = $1', [organizationId]);
    return rows.length > 0;
  }

  /** Whether a unified user exists, and whom it was merged into; null when there is none. */
  async unifiedUser(manager: EntityManager, uid: string): Promise<{ mergedInto: string | null } | null> {
    const rows: { mergedInto: string | null }[] = await manager.query(
      'SELECT merged_into AS "mergedInto" FROM unified_user WHERE uid = $1 FOR KEY SHARE',
      [uid],
    );
    return rows[0] ?? null;
  }

  /** Those of `registryIds` that name a live registered app, with the organization each belongs to. */
  async existingRegistries(
    manager: EntityManager,
    registryIds: string[],
  ): Promise<{ registryId: string; organizationId: string | null }[]> {
    return manager.query(
      'SELECT registry_id AS "registryId", organization_id AS "organizationId" FROM registered_app WHERE registry_id = ANY($1) AND deleted_at IS NULL',
      [registryIds],
    );
  }

  /**
   * Serializes the creation of the first platform key among replicas starting together (an advisory
   * lock held until the transaction ends), then says whether an active one exists.
   */
  async lockBootstrapAndFindPlatformKey(manager: EntityManager, lockKey: number): Promise<boolean> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
    const rows: unknown[] = await manager.query(`SELECT 1 FROM api_key WHERE class = 'platform' AND revoked_at IS NULL LIMIT 1`);
    return rows.length > 0;
  }

  async insert(
    manager: EntityManager,
    key: {
      id: string;
      name: string;
      keyClass: KeyClass;
      organizationId: string | null;
      maxApps: number;
      agentSupervisorUid: string | null;
    },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO api_key (id, name, class, organization_id, max_apps, agent_supervisor_uid) VALUES ($1, $2, $3, $4, $5, $6)`,
      [key.id, key.name, key.keyClass, key.organizationId, key.maxApps, key.agentSupervisorUid],
    );
  }

  async insertSecret(manager: EntityManager, keyId: string, prefix: string, hash: Buffer): Promise<void> {
    await manager.query(`INSERT INTO api_key_secret (prefix, key_id, secret_hash) VALUES ($1, $2, $3)`, [prefix, keyId, hash]);
  }

  /** Locks the key row for the rest of the transaction (rotation, app registration). */
  async lock(
    manager: EntityManager,
    id: string,
  ): Promise<{ revokedAt: Date | null; keyClass: KeyClass; organizationId: string | null } | null> {
    const rows = await manager.query(
      `SELECT revoked_at AS "revokedAt", class AS "keyClass", organization_id AS "organizationId" FROM api_key WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  }

  async expireCurrentSecret(manager: EntityManager, keyId: string, graceSeconds: number, _write: SubjectChangeWrite): Promise<void> {
    await manager.query(`UPDATE api_key_secret SET expires_at = now() WHERE key_id = $1 AND expires_at > now()`, [keyId]);
    await manager.query(
      `UPDATE api_key_secret SET expires_at = now() + make_interval(secs => $2) WHERE key_id = $1 AND expires_at IS NULL`,
      [keyId, graceSeconds],
    );
    await manager.query(`UPDATE api_key SET rotated_at = now() WHERE id = $1`, [keyId]);
  }

  async revoke(manager: EntityManager, id: string, _write: SubjectChangeWrite): Promise<void> {
    await manager.query(`UPDATE api_key SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
  }

  async bindRegistries(manager: EntityManager, keyId: string, registryIds: string[]): Promise<void> {
    for (const registryId of registryIds) {
      await manager.query(`INSERT INTO key_registry_binding (key_id, registry_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        keyId,
        registryId,
      ]);
    }
  }
}
