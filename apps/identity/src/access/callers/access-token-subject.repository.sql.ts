// The SQL of access-token-subject.repository.ts, in a module without decorators or imports (plain Node
// strips types but cannot run decorators), so the scale bench EXPLAINs the text the repository sends.

/** $1 the token's uid, $2 its client, $3 its grant, $4 its jti, $5 the jti of the agent token it was exchanged for (or null). */
export const ACCESS_TOKEN_SUBJECT = `SELECT u.uid,
              (EXISTS (SELECT 1 FROM registered_app a JOIN api_key k ON k.id = a.registered_by_key
                        WHERE a.client_id = $2 AND a.deleted_at IS NULL AND k.revoked_at IS NULL)
               OR EXISTS (SELECT 1 FROM oidc_model c WHERE c.model = 'Client' AND c.id = $2)
               OR $2 LIKE 'https://%') AS "clientActive",
              EXISTS (SELECT 1 FROM oidc_model g
                       WHERE g.model = 'Grant' AND g.id = $3 AND (g.expires_at IS NULL OR g.expires_at > now())) AS "grantActive",
              (SELECT (extract(epoch FROM g.expires_at) * 1000)::float8 FROM oidc_model g
                WHERE g.model = 'Grant' AND g.id = $3) AS "grantExpiresAtMs",
              NOT EXISTS (SELECT 1 FROM revoked_access_token t WHERE t.jti IN ($4, $5)) AS "tokenActive",
              coalesce((SELECT json_agg(json_build_object('role', r.role, 'organizationId', r.organization_id) ORDER BY r.id)
                          FROM role_binding r WHERE r.uid = u.uid), '[]'::json) AS roles
         FROM unified_user u
        WHERE u.uid = (SELECT coalesce(merged_into, uid) FROM unified_user WHERE uid = $1)`;
