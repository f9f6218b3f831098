import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface RegisteredAppRow {
  registry_id: string;
  name: string;
  type: string;
  redirect_uris: string[];
  client_id: string;
  organization_id: string | null;
  created_at: Date;
}

export interface ActiveClientRow {
  registry_id: string;
  name: string;
  client_id: string;
  redirect_uris: string[];
  /** Null for apps registered before sign-in existed: they cannot sign anyone in until they register again. */
  client_secret_sealed: Buffer | null;
  organization_id: string | null;
}

const APP_COLUMNS = 'registry_id, name, type, redirect_uris, client_id, organization_id, created_at';

/** Every query of registered apps. */
@Injectable()
export class RegisteredAppsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async countActiveRegisteredBy(manager: EntityManager, keyId: string): Promise<number> {
    const rows: { count: number }[] = await manager.query(
      'SELECT count(*)::int AS count FROM registered_app WHERE registered_by_key = $1 AND deleted_at IS NULL',
      [keyId],
    );
    return rows[0]!.count;
  }

  async insert(
    manager: EntityManager,
    app: {
      registryId: string;
      name: string;
      type: string;
      redirectUris: string[];
      clientId: string;
      clientSecretHash: Buffer;
      clientSecretSealed: Buffer;
      organizationId: string | null;
      keyId: string;
    },
  ): Promise<RegisteredAppRow> {
    const rows: RegisteredAppRow[] = await manager.query(
      `INSERT INTO registered_app (registry_id, name, type, redirect_uris, client_id, client_secret_hash, client_secret_sealed, organization_id, registered_by_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${APP_COLUMNS}`,
      [
        app.registryId,
        app.name,
        app.type,
        app.redirectUris,
        app.clientId,
        app.clientSecretHash,
        app.clientSecretSealed,
        app.organizationId,
        app.keyId,
      ],
    );
    return rows[0]!;
  }

  /** The app behind an OIDC client id while it may sign users in: not deleted, and the key that registered it not revoked. */
  async findActiveClient(clientId: string): Promise<ActiveClientRow | null> {
    const rows: ActiveClientRow[] = await this.dataSource.query(
      `SELECT a.registry_id, a.name, a.client_id, a.redirect_uris, a.client_secret_sealed, a.organization_id
         FROM registered_app a JOIN api_key k ON k.id = a.registered_by_key
        WHERE a.client_id = $1 AND a.deleted_at IS NULL AND k.revoked_at IS NULL`,
      [clientId],
    );
    return rows[0] ?? null;
  }

  async find(registryId: string): Promise<RegisteredAppRow | null> {
    const rows: RegisteredAppRow[] = await this.dataSource.query(
      `SELECT ${APP_COLUMNS} FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL`,
      [registryId],
    );
    return rows[0] ?? null;
  }

  /** Active apps, all of them or those among `registryIds`, in registry id order. */
  async list(registryIds: string[] | null, afterId: string | undefined, limit: number): Promise<(RegisteredAppRow & { id: string })[]> {
    return this.dataSource.query(
      `SELECT ${APP_COLUMNS}, registry_id AS id FROM registered_app
        WHERE deleted_at IS NULL AND ($1::text[] IS NULL OR registry_id = ANY($1)) AND ($2::text IS NULL OR registry_id > $2)
        ORDER BY registry_id LIMIT $3`,
      [registryIds, afterId ?? null, limit],
    );
  }

  async softDelete(manager: EntityManager, registryId: string): Promise<boolean> {
    // For UPDATE, TypeORM's query() answers [rows, affectedCount].
    const [, affected]: [unknown[], number] = await manager.query(
      'UPDATE registered_app SET deleted_at = now() WHERE registry_id = $1 AND deleted_at IS NULL',
      [registryId],
    );
    return affected > 0;
  }
}
