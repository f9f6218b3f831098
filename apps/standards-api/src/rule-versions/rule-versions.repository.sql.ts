// The SQL of RuleVersionsRepository, as plain text: the repository runs it, and the scale bench
// (tools/scale/rule-version-queries.mjs, plain JavaScript run by Node, which cannot load the decorated
// repository) explains the same text at full size into rule-versions.repository.explain.md.

const RULE_VERSION = `project_id AS "projectId", version, scenario_id AS "scenarioId", revision, rules_digest AS "rulesDigest", rules,
  effective_from AS "effectiveFrom", created_by AS "createdBy", created_at AS "createdAt"`;

/**
 * $1 project, $2 organization: activations, version numbering and discards of one project happen one at a time; a
 * project discarded meanwhile is not locked (the row is re-read after the wait).
 */
export const LOCK_PROJECT = 'SELECT id FROM split_project WHERE id = $1 AND organization_id = $2 AND discarded_at IS NULL FOR UPDATE';

/** $1 project: its latest version, a backward probe of the primary key. */
export const LATEST_VERSION =
  'SELECT version, effective_from AS "effectiveFrom" FROM rule_version WHERE project_id = $1 ORDER BY version DESC LIMIT 1';

export const INSERT_VERSION = `INSERT INTO rule_version (project_id, version, scenario_id, revision, rules_digest, rules, effective_from, created_by)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${RULE_VERSION}`;

/** $1 project, $2 version. */
export const FIND_VERSION = `SELECT ${RULE_VERSION} FROM rule_version WHERE project_id = $1 AND version = $2`;

/** $1 project, $2 the last version served (0 for the first page), $3 limit: a forward probe of the primary key. */
export const LIST_VERSIONS = `SELECT ${RULE_VERSION} FROM rule_version WHERE project_id = $1 AND version > $2 ORDER BY version LIMIT $3`;
