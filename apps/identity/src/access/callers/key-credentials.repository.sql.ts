// The SQL of key-credentials.repository.ts (and the supervisor column keys.repository.ts shares) that the scale bench EXPLAINs, in a module without decorators or
// imports (plain Node strips types but cannot run decorators), so the bench sends the repository's text.

/** The supervisor an agent's key names, followed through a merge to the survivor (a merge is one hop: see MergesRepository). */
export const AGENT_SUPERVISOR = `(SELECT coalesce(u.merged_into, u.uid) FROM unified_user u WHERE u.uid = k.agent_supervisor_uid) AS "agentSupervisorUid"`;

/** $1 the prefix of a presented secret. */
export const KEY_CREDENTIAL = `SELECT k.id AS "keyId", k.class AS "keyClass", k.organization_id AS "organizationId", k.max_apps AS "maxApps",
              k.revoked_at AS "revokedAt", s.secret_hash AS "secretHash",
              (extract(epoch FROM s.expires_at - now()) * 1000)::float8 AS "expiresInMs",
              ARRAY(SELECT b.registry_id FROM key_registry_binding b WHERE b.key_id = k.id) AS "registryIds",
              ${AGENT_SUPERVISOR}
         FROM api_key_secret s JOIN api_key k ON k.id = s.key_id
        WHERE s.prefix = $1`;
