// A person of a partner's organization who signs in through identity's OpenID Provider (the built
// artifact) and gets an access token for standards-api: the only kind of credential a formal write
// (activation, settlement posting) accepts, so the tests can post what agents may then only read.
import { startSignedInPartner } from '@stdreg/server-kit/testing';
import type { Platform } from './platform';

export interface Partner {
  organizationId: string;
  key: string;
  /** Signs a new user with these roles in the partner's organization in; answers the access token. */
  signedInUser(roles: string[]): Promise<string>;
  /** A new user with these roles, whom an agent host signs in for the gateway at `mcpResource`, once per scope list. */
  agentOfUser(
    roles: string[],
    mcpResource: string,
    scopes: string[],
  ): Promise<{ uid: string; tokens: { clientId: string; accessToken: string; refreshToken: string | undefined }[] }>;
  close(): Promise<void>;
}

export async function startPartner(platform: Platform): Promise<Partner> {
  const partner = await startSignedInPartner({ url: platform.identityUrl, platformKey: platform.platformKey });
  return {
    organizationId: partner.organizationId,
    key: partner.appKey,
    signedInUser: async (roles) => partner.signIn((await partner.userWithRoles(roles)).email),
    agentOfUser: async (roles, mcpResource, scopes) => {
      const user = await partner.userWithRoles(roles);
      const tokens = [];
      for (const scope of scopes) tokens.push(await partner.signInAgent(user.email, mcpResource, scope));
      return { uid: user.uid, tokens };
    },
    close: () => partner.close(),
  };
}
