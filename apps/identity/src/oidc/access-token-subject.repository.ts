import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '@stdreg/server-kit/database';
import { ACCESS_TOKEN_SUBJECT } from './access-token-subject.repository.sql';
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
    const rows = await preparedQuery<AccessTokenSubject>(this.dataSource, 'identity-access-token-subject', ACCESS_TOKEN_SUBJECT, [
      uid,
      clientId,
      grantId,
      jti,
    ]);
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
