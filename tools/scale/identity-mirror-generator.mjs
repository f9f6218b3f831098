// Deterministic, seeded generator of a partner's user mirror, API keys and role bindings, written
// straight into identity's database (issue 21): a million mirror users through POST /v1/sync take
// hours on a small machine, so the bench syncs a stretch through the API and generates the rest here.
// The rows are the ones the service writes for a created record (UsersService.createRecord): one
// unified user per record, in the scope of the registry's organization (APP_EMAIL_SCOPE), the record
// linked to it; every verified email is unique in its scope (the partial unique index
// unified_user_verified_email holds the generator to it, as it holds the service). Keys are the rows
// KeysService.issue writes (api_key, api_key_secret with the sha256 of the secret), role bindings those
// of RoleBindingsService.grant. What differs from the API: ids take their random bits from md5 of the
// seed, and no audit entries or partner events are written for generated rows.

/** Rows of one INSERT statement. */
const CHUNK = 50_000;

/** Epoch milliseconds of the first generated row; each row n is one millisecond later, so ids grow with n. */
const BASE_MS = Date.UTC(2025, 0, 1);

/** The roles generated bindings cycle through (every one a role of the catalogue, none allowing a write). */
const ROLES = ['investor', 'revenue-participant', 'external-auditor', 'compliance-officer'];

/** A uuidv7 of millisecond `msSql` whose random bits are md5(`keySql`): valid wherever the API parses ids. */
function uuidv7Sql(msSql, keySql) {
  const random = `md5(${keySql})`;
  return `(lpad(to_hex(${msSql}), 12, '0') || '7' || substr(${random}, 1, 3)
     || substr('89ab', ('x' || substr(${random}, 4, 1))::bit(4)::int % 4 + 1, 1) || substr(${random}, 5, 15))::uuid`;
}

/**
 * The fields of mirror user `n` of an organization whose emails end in `@domain`: what the bench syncs
 * through the API, and what generateMirrorUsers writes (the same rules in SQL below).
 */
export function mirrorRecord(n, domain) {
  return {
    externalId: `ext-${n}`,
    email: `user-${n}@${domain}`,
    emailVerified: n % 10 !== 0,
    displayName: `User ${n}`,
    locale: n % 3 === 0 ? 'zh-Hans' : 'en',
  };
}

// Parameters of both statements: $1 seed, $2 registry, $3 email scope, $4 domain, $5 first n, $6 last n (exclusive).
const ROWS = `SELECT n, ${uuidv7Sql(`${BASE_MS} + n`, `$1 || ':uid:' || $2 || ':' || n`)} AS uid,
    ${uuidv7Sql(`${BASE_MS} + n`, `$1 || ':mirror:' || $2 || ':' || n`)} AS id,
    'user-' || n || '@' || $4 AS email, n % 10 <> 0 AS verified, 'User ' || n AS name,
    CASE WHEN n % 3 = 0 THEN 'zh-Hans' ELSE 'en' END AS locale, $3::text AS scope, to_timestamp((${BASE_MS} + n) / 1000.0) AS at
  FROM generate_series($5::bigint, $6::bigint - 1) n`;

/**
 * Mirror users n = from .. to - 1 of registry `registryId`, with their unified users. `client` is a
 * connected pg client on identity's database; `onProgress(done)` after each chunk.
 */
export async function generateMirrorUsers(client, { seed, registryId, domain, from, to, onProgress }) {
  const [{ scope }] = (
    await client.query(
      `SELECT coalesce(organization_id::text, 'registry:' || registry_id) AS scope FROM registered_app WHERE registry_id = $1`,
      [registryId],
    )
  ).rows;
  for (let start = from; start < to; start += CHUNK) {
    const params = [String(seed), registryId, scope, domain, start, Math.min(to, start + CHUNK)];
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO unified_user (uid, email, email_verified, display_name, email_scope, created_at)
       SELECT uid, email, verified, name, scope, at FROM (${ROWS}) g`,
      params,
    );
    await client.query(
      `INSERT INTO user_mirror (id, registry_id, external_id, email, email_verified, display_name, locale, uid, created_at, updated_at)
       SELECT id, $2, 'ext-' || n, email, verified, name, locale, uid, at, at FROM (${ROWS}) g`,
      params,
    );
    await client.query('COMMIT');
    onProgress?.(Math.min(to, start + CHUNK) - from);
  }
}

// Key n of an organization: $1 seed, $2 organization, n the row.
const KEY_ID = uuidv7Sql(`${BASE_MS} + n`, `$1 || ':key:' || $2 || ':' || n`);
const KEY_PREFIX = `translate(substr(md5($1 || ':prefix:' || $2 || ':' || n), 1, 10), '0189', 'wxyz')`;
const KEY_SECRET = `'stdreg_app_' || ${KEY_PREFIX} || '_' || substr(md5($1 || ':secret:' || $2 || ':' || n) || md5($1 || ':secret2:' || $2 || ':' || n), 1, 43)`;

/** `count` app keys of organization `organizationId`, none revoked, each with its current secret. */
export async function generateKeys(client, { seed, organizationId, count }) {
  const params = [String(seed), organizationId, count];
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO api_key (id, name, class, organization_id, max_apps, created_at)
     SELECT ${KEY_ID}, 'scale key ' || n, 'app', $2::uuid, 3, to_timestamp((${BASE_MS} + n) / 1000.0)
       FROM generate_series(0, $3::bigint - 1) n`,
    params,
  );
  await client.query(
    `INSERT INTO api_key_secret (prefix, key_id, secret_hash, created_at)
     SELECT ${KEY_PREFIX}, ${KEY_ID}, sha256(convert_to(${KEY_SECRET}, 'UTF8')), to_timestamp((${BASE_MS} + n) / 1000.0)
       FROM generate_series(0, $3::bigint - 1) n`,
    params,
  );
  await client.query('COMMIT');
}

/** The secret of generated key `n` of the organization, as a partner would present it. */
export async function generatedKeySecret(client, { seed, organizationId, n }) {
  return (await client.query(`SELECT ${KEY_SECRET} AS secret FROM (SELECT $3::bigint AS n) k`, [String(seed), organizationId, n])).rows[0]
    .secret;
}

/** Role bindings in organization `organizationId` for the unified users of the first `count` records of the registry (id order). */
export async function generateRoleBindings(client, { seed, organizationId, registryId, count }) {
  const { rowCount } = await client.query(
    `INSERT INTO role_binding (id, uid, role, organization_id, granted_at)
     SELECT ${uuidv7Sql(`${BASE_MS} + n`, `$1 || ':binding:' || $2 || ':' || n`)}, m.uid, ($5::text[])[(n % $6)::int + 1], $2::uuid,
            to_timestamp((${BASE_MS} + n) / 1000.0)
       FROM (SELECT uid, row_number() OVER (ORDER BY id) - 1 AS n FROM user_mirror WHERE registry_id = $3 ORDER BY id LIMIT $4) m
     ON CONFLICT (uid, role, organization_id) DO NOTHING`,
    [String(seed), organizationId, registryId, count, ROLES, ROLES.length],
  );
  return rowCount;
}
