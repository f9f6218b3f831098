/** Who is asking, once a forwarded credential is resolved: by the key check or by the access-token verifier. */
export type DecisionSubject =
  | { kind: 'platform_key'; keyId: string; keyPrefix: string }
  | { kind: 'app_key'; keyId: string; keyPrefix: string; organizationId: string | null }
  | {
      kind: 'human';
      uid: string;
      roles: { role: string; organizationId: string | null }[];
      /** When the person signed in (the token's `auth_time`, seconds since the epoch); unknown counts as too long ago. */
      authTime?: number;
    };
