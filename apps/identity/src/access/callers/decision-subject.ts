/** Who is asking, once a forwarded credential is resolved: by the key check or by the access-token verifier. */
export type DecisionSubject =
  | { kind: 'platform_key'; keyId: string; keyPrefix: string }
  | { kind: 'app_key'; keyId: string; keyPrefix: string; organizationId: string | null }
  | {
      kind: 'human';
      uid: string;
      roles: EffectiveRoleBinding[];
      /** When the person signed in (the token's `auth_time`, seconds since the epoch); unknown counts as too long ago. */
      authTime?: number;
    }
  | AgentSubject;

export interface EffectiveRoleBinding {
  role: string;
  organizationId: string | null;
}

/**
 * Software acting for someone (AGT-1: every agent has a named supervisor). Through a token, the agent
 * client acts for the person who consented, with that person's roles and no more than its scopes; through
 * a key marked as an agent's, it acts in the key's organization under the person named for it.
 */
export type AgentSubject =
  | {
      kind: 'agent';
      via: 'token';
      clientId: string;
      supervisorUid: string;
      roles: EffectiveRoleBinding[];
      scopes: string[];
    }
  | { kind: 'agent'; via: 'key'; keyId: string; keyPrefix: string; organizationId: string | null; supervisorUid: string };
