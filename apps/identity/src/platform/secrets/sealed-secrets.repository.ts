import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A stored sealed secret and what it was sealed for. */
export interface SealedSecret {
  kind: 'registered_app' | 'webhook_endpoint';
  boundTo: string;
  sealed: Buffer;
}

/** Reads the secrets identity keeps sealed, to check at start that the configured key opens them. */
@Injectable()
export class SealedSecretsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The newest sealed client secret of a live app and the newest webhook endpoint's current secret, when there are any. */
  async newest(): Promise<SealedSecret[]> {
    return this.dataSource.query(
      `(SELECT 'registered_app' AS kind, client_id AS "boundTo", client_secret_sealed AS sealed FROM registered_app
         WHERE client_secret_sealed IS NOT NULL AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1)
       UNION ALL
       (SELECT 'webhook_endpoint', id::text, secret_sealed FROM webhook_endpoint ORDER BY updated_at DESC LIMIT 1)`,
    );
  }
}
