import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

/** The access tokens their clients revoked (read with the token's subject by AccessTokenSubjectRepository). */
@Injectable()
export class RevokedAccessTokensRepository {
  /**
   * Records a revoked token until it expires; answers false when it was revoked already (nothing changes). Rows of
   * expired tokens go on the way, an hour after their `exp`: a replica checks `exp` on its own clock, and one running
   * behind the database's would take a revoked token again if its row went at `exp` by the database's clock.
   */
  async insert(manager: EntityManager, jti: string, clientId: string, expiresAt: Date, _write: SubjectChangeWrite): Promise<boolean> {
    await manager.query(`DELETE FROM revoked_access_token WHERE expires_at < now() - interval '1 hour'`);
    const inserted: unknown[] = await manager.query(
      'INSERT INTO revoked_access_token (jti, client_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (jti) DO NOTHING RETURNING jti',
      [jti, clientId, expiresAt],
    );
    return inserted.length > 0;
  }
}
