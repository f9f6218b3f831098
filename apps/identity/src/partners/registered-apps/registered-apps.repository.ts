import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

export interface RegisteredApp {
  registryId: string;
  name: string;
  type: string;
  redirectUris: string[];
  clientId: string;
  organizationId: string | null;
  createdAt: Date;
}

/** A registered app as an OIDC client. */
export interface ActiveClient {
  registryId: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  /** Null for apps registered before sign-in existed: they cannot sign anyone in until they register again. */
  clientSecretSealed: Buffer | null;
  organizationId: string | null;
}

const APP_COLUMNS = `registry_id AS "registryId", name, type, redirect_uris AS "redirectUris", client_id AS "clientId",
  organization_id AS "organizationId", created_at AS "createdAt"`;

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
  ): Promise<RegisteredApp> {
    const rows: RegisteredApp[] = await manager.query(
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
  async findActiveClient(clientId: string): Promise<ActiveClient | null> {
    const rows: ActiveClient[] = await this.dataSource.query(
      `SELECT a.registry_id AS "registryId", a.name, a.client_id AS "clientId", a.redirect_uris AS "redirectUris",
              a.client_secret_sealed AS "clientSecretSealed", a.organization_id AS "organizationId"
         FROM registered_app a JOIN api_key k ON k.id = a.registered_by_key
        WHERE a.client_id = $1 AND a.deleted_at IS NULL AND k.revoked_at IS NULL`,
      [clientId],
    );
    return rows[0] ?? null;
  }

  async find(registryId: string): Promise<RegisteredApp | null> {
    const rows: RegisteredApp[] = await this.dataSource.query(
      `SELECT ${APP_COLUMNS} FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL`,
      [registryId],
    );
    return rows[0] ?? null;
  }

  /** Active apps, all of them or those among `registryIds`, in registry id order. */
  async list(registryIds: string[] | null, afterId: string | undefined, limit: number): Promise<(RegisteredApp & { id: string })[]> {
    return this.dataSource.query(
      `SELECT ${APP_COLUMNS}, registry_id AS id FROM registered_app
        WHERE deleted_at IS NULL AND ($1::text[] IS NULL OR registry_id = ANY($1)) AND ($2::text IS NULL OR registry_id > $2)
        ORDER BY registry_id LIMIT $3`,
      [registryIds, afterId ?? null, limit],
    );
  }

  async softDelete(manager: EntityManager, registryId: string, _write: SubjectChangeWrite): Promise<boolean> {
    // For UPDATE, TypeORM's query() answers [rows, affectedCount].
    const [, affected]: [unknown[], number] = await manager.query(
      'UPDATE registered_app SET deleted_at = now() WHERE registry_id = $1 AND deleted_at IS NULL',
      [registryId],
    );
    return affected > 0;
  }
}
