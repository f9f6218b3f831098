import { Injectable } from '@nestjs/common';
import type { Account } from 'oidc-provider';
import { UnifiedUsersService, type EffectiveRole } from '../../people/unified-users/unified-users.service';
import { isUuid } from '@stdreg/server-kit';

/** uids are UUIDs; anything else in a token's `sub` is no user (and must not reach a uuid column). */

/** The claims every token of a user carries: `uid` is the survivor when the user was merged; roles are read now. */
export interface UserTokenClaims {
  uid: string;
  roles: EffectiveRole[];
}

/** Unified users as the provider's accounts: `sub` is the uid that signed in, `uid` where it resolves to today. */
@Injectable()
export class OidcAccounts {
  constructor(private readonly users: UnifiedUsersService) {}

  async find(sub: string): Promise<Account | undefined> {
    if (!isUuid(sub)) return undefined;
    const user = await this.users.findResolved(sub);
    if (!user) return undefined;
    return {
      accountId: sub,
      claims: async () => ({
        sub,
        uid: user.uid,
        roles: await this.users.effectiveRoles(user.uid),
        ...(user.displayName ? { name: user.displayName } : {}),
        ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
      }),
    };
  }

  async tokenClaims(sub: string): Promise<UserTokenClaims | null> {
    if (!isUuid(sub)) return null;
    const user = await this.users.findResolved(sub);
    return user ? { uid: user.uid, roles: await this.users.effectiveRoles(user.uid) } : null;
  }
}
