import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '@stdreg/server-kit/database';
import type { EffectiveRole } from '../unified-users/unified-users.service';

export interface AccessTokenSubject {
  /** The live user the token's uid resolves to (itself, or the survivor of a merge). */
  uid: string;
  clientActive: boolean;
  grantActive: boolean;
  /** When the grant expires by itself, epoch ms; null when it does not. */
  grantExpiresAtMs: number | null;
  /** False once the token itself was revoked (by its jti). */
  tokenActive: boolean;
  roles: EffectiveRole[];
}

/**
 * The one query behind a user access token at the decision endpoint: whom it resolves to, whether its
 * client (a registered app, an agent registered by DCR, or an agent known by its metadata document's
 * https URL) and grant are still there, and the role bindings held now. One round trip, since every protected
 * request of a signed-in user pays it, and a prepared statement (planned once per connection).
 */
@Injectable()
export class AccessTokenSubjectRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(uid: string, clientId: string, grantId: string, jti: string): Promise<AccessTokenSubject | null> {
    const rows = await preparedQuery<AccessTokenSubject>(
      this.dataSource,
      'identity-access-token-subject',
      `SELECT u.uid,
              (EXISTS (SELECT 1 FROM registered_app a JOIN api_key k ON k.id = a.registered_by_key
                        WHERE a.client_id = $2 AND a.deleted_at IS NULL AND k.revoked_at IS NULL)
               OR EXISTS (SELECT 1 FROM oidc_model c WHERE c.model = 'Client' AND c.id = $2)
               OR $2 LIKE 'https://%') AS "clientActive",
              EXISTS (SELECT 1 FROM oidc_model g
                       WHERE g.model = 'Grant' AND g.id = $3 AND (g.expires_at IS NULL OR g.expires_at > now())) AS "grantActive",
              (SELECT (extract(epoch FROM g.expires_at) * 1000)::float8 FROM oidc_model g
                WHERE g.model = 'Grant' AND g.id = $3) AS "grantExpiresAtMs",
              NOT EXISTS (SELECT 1 FROM revoked_access_token t WHERE t.jti = $4) AS "tokenActive",
              coalesce((SELECT json_agg(json_build_object('role', r.role, 'organizationId', r.organization_id) ORDER BY r.id)
                          FROM role_binding r WHERE r.uid = u.uid), '[]'::json) AS roles
         FROM unified_user u
        WHERE u.uid = (SELECT coalesce(merged_into, uid) FROM unified_user WHERE uid = $1)`,
      [uid, clientId, grantId, jti],
    );
    return rows[0] ?? null;
  }

  /** Records a revoked token until it expires; revoking it again changes nothing. Rows of expired tokens go on the way. */
  async revoke(jti: string, clientId: string, expiresAt: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM revoked_access_token WHERE expires_at < now()');
      await manager.query(
        'INSERT INTO revoked_access_token (jti, client_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (jti) DO NOTHING',
        [jti, clientId, expiresAt],
      );
    });
  }
}
