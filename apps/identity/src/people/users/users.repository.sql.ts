// The SQL of users.repository.ts, in a module without decorators or imports, so that the scale bench
// (plain Node, which strips types but cannot run decorators) EXPLAINs the very text the repository sends.

/**
 * The organization that vouches for the emails of a registered app's (alias `r`) records, or the
 * registry itself for an app that belongs to no organization.
 */
export const APP_EMAIL_SCOPE = "coalesce(r.organization_id::text, 'registry:' || r.registry_id)";

export const MIRROR_COLUMNS = `id, registry_id AS "registryId", external_id AS "externalId", email, email_verified AS "emailVerified",
  display_name AS "displayName", locale, uid, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** $1 registry, $2 external ids. */
export const MIRROR_RECORDS_BY_EXTERNAL_IDS = `SELECT ${MIRROR_COLUMNS} FROM user_mirror WHERE registry_id = $1 AND external_id = ANY($2::text[]) FOR UPDATE`;

/** $1 registry, $2 email or null, $3 the last id of the previous page or null, $4 limit. */
export const MIRROR_RECORDS_PAGE = `SELECT ${MIRROR_COLUMNS} FROM user_mirror
        WHERE registry_id = $1 AND ($2::text IS NULL OR lower(email) = lower($2)) AND ($3::uuid IS NULL OR id > $3)
        ORDER BY id LIMIT $4`;

/** $1 email, $2 scope. */
export const VERIFIED_UNIFIED_USER = `SELECT live.uid FROM unified_user u JOIN unified_user live ON live.uid = coalesce(u.merged_into, u.uid)
        WHERE u.email_scope = $2 AND lower(u.email) = lower($1) AND u.email_verified AND live.merged_into IS NULL
        ORDER BY u.merged_into IS NULL DESC, u.uid LIMIT 1 FOR SHARE OF live`;

/** $1 the unified user, deleted when nothing refers to it any more. */
export const UNREFERENCED_UNIFIED_USER_DELETE = `DELETE FROM unified_user u WHERE u.uid = $1
         AND NOT EXISTS (SELECT 1 FROM user_mirror m WHERE m.uid = u.uid)
         AND NOT EXISTS (SELECT 1 FROM app_link l WHERE l.uid = u.uid)
         AND NOT EXISTS (SELECT 1 FROM role_binding r WHERE r.uid = u.uid)
         AND NOT EXISTS (SELECT 1 FROM api_key k WHERE k.agent_supervisor_uid = u.uid)
         AND NOT EXISTS (SELECT 1 FROM unified_user a WHERE a.merged_into = u.uid)
         AND NOT EXISTS (SELECT 1 FROM user_merge g WHERE g.survivor_uid = u.uid OR g.merged_uid = u.uid)`;
