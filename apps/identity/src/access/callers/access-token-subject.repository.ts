import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '@stdreg/server-kit/database';
import { ACCESS_TOKEN_SUBJECT } from './access-token-subject.repository.sql';
import type { EffectiveRoleBinding } from './decision-subject';

export interface AccessTokenSubject {
  /** The live user the token's uid resolves to (itself, or the survivor of a merge). */
  uid: string;
  clientActive: boolean;
  grantActive: boolean;
  /** When the grant expires by itself, epoch ms; null when it does not. */
  grantExpiresAtMs: number | null;
  /** False once the token itself was revoked (by its jti), or the agent token an exchanged one came from. */
  tokenActive: boolean;
  roles: EffectiveRoleBinding[];
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

  /** `subjectTokenJti`: on an exchanged token, the jti of the agent's token it came from; null otherwise. */
  async find(
    uid: string,
    clientId: string,
    grantId: string,
    jti: string,
    subjectTokenJti: string | null,
  ): Promise<AccessTokenSubject | null> {
    const rows = await preparedQuery<AccessTokenSubject>(this.dataSource, 'identity-access-token-subject', ACCESS_TOKEN_SUBJECT, [
      uid,
      clientId,
      grantId,
      jti,
      subjectTokenJti,
    ]);
    return rows[0] ?? null;
  }
}
