import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '@stdreg/server-kit/database';
import { ACCESS_TOKEN_SUBJECT } from './access-token-subject.repository.sql';
import type { EffectiveRoleBinding } from './decision-subject';

/** The ids a user access token names, by which its subject is read (and leased). */
export interface AccessTokenIds {
  /** The token's `sub`. */
  uid: string;
  /** The agent client it acts for (the gateway's token's client, or an exchanged token's `act`), else its `client_id`. */
  clientId: string;
  /** The token's `gid`. */
  grantId: string;
  jti: string;
  /** On an exchanged token, the jti of the agent's token it came from; null otherwise. */
  subjectTokenJti: string | null;
}

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

  async find(token: AccessTokenIds): Promise<AccessTokenSubject | null> {
    const rows = await preparedQuery<AccessTokenSubject>(this.dataSource, 'identity-access-token-subject', ACCESS_TOKEN_SUBJECT, [
      token.uid,
      token.clientId,
      token.grantId,
      token.jti,
      token.subjectTokenJti,
    ]);
    return rows[0] ?? null;
  }
}
