// The SQL of SplitProjectsRepository, as plain text: the repository runs it, and the scale bench
// (tools/scale/split-project-queries.mjs, plain JavaScript run by Node, which cannot load the decorated
// repository) explains the same text at full size into split-projects.repository.explain.md.

// Each query names its columns and their domain names; a repository hands out records, never rows.
const PROJECT = `id, organization_id AS "organizationId", name, currency, template_version AS "templateVersion", created_by AS "createdBy",
  created_at AS "createdAt"`;
const SCENARIO = `s.id, s.project_id AS "projectId", s.name,
  CASE WHEN s.branched_from_scenario_id IS NULL THEN NULL
       ELSE json_build_object('scenarioId', s.branched_from_scenario_id, 'revision', s.branched_from_revision) END AS "branchedFrom",
  s.created_at AS "createdAt",
  (SELECT max(r.revision) FROM scenario_revision r WHERE r.scenario_id = s.id) AS "currentRevision"`;
const REVISION_SUMMARY = `scenario_id AS "scenarioId", revision, rules_digest AS "rulesDigest", created_by AS "createdBy", created_at AS "createdAt"`;
const REVISION = `${REVISION_SUMMARY}, content`;

export const INSERT_PROJECT = `INSERT INTO split_project (id, organization_id, name, currency, template_version, created_by) VALUES ($1, $2, $3, $4, $5, $6)`;

/** $1 project, $2 organization: a discarded project is not found. */
export const FIND_PROJECT = `SELECT ${PROJECT} FROM split_project WHERE id = $1 AND organization_id = $2 AND discarded_at IS NULL`;

/**
 * $1 project, $2 organization: the project, discarded or not, locked as activation locks it (rule-versions' LOCK_PROJECT),
 * so that a discard and an activation of one project happen one after the other.
 */
export const LOCK_PROJECT_TO_DISCARD = `SELECT ${PROJECT}, discarded_at AS "discardedAt", discarded_by AS "discardedBy"
  FROM split_project WHERE id = $1 AND organization_id = $2 FOR UPDATE`;

/**
 * $1 project. Its own statement after the lock, so that it sees an activation that committed while the lock was awaited
 * (a subquery of the locking statement would read the snapshot taken before the wait).
 */
export const HAS_RULE_VERSION = `SELECT EXISTS (SELECT 1 FROM rule_version WHERE project_id = $1) AS "activated"`;

/** $1 project, $2 who discards it. */
export const MARK_DISCARDED = `UPDATE split_project SET discarded_at = now(), discarded_by = $2 WHERE id = $1 AND discarded_at IS NULL
  RETURNING discarded_at AS "discardedAt", discarded_by AS "discardedBy"`;

/**
 * $1 project, $2 organization: held (shared) by a write to the project's scenarios until it commits, so that a discard
 * waits for it, and it for a discard, which it then finds.
 */
export const HOLD_PROJECT_TO_DRAFT = `SELECT id FROM split_project WHERE id = $1 AND organization_id = $2 AND discarded_at IS NULL FOR SHARE`;

/**
 * $1 organization, $2 the cursor's project or null, $3 limit. For an organization that owns most of the
 * projects the planner walks the primary key and filters by organization, passing over other
 * organizations' projects that come before in id order (issue 21, see performance.md): a row
 * comparison on (organization_id, id) was tried and made it read the whole organization and sort it.
 */
export const LIST_PROJECTS = `SELECT ${PROJECT} FROM split_project WHERE organization_id = $1 AND discarded_at IS NULL AND ($2::uuid IS NULL OR id > $2)
  ORDER BY id LIMIT $3`;

/** $1 organization: one creator of the organization's projects at a time, to the transaction's end (the drafts' bound). */
export const LOCK_ORGANIZATION_PROJECTS = `SELECT pg_advisory_xact_lock(hashtextextended('split-projects:' || $1, 0))`;

/** $1 organization, $2 the most worth counting: its projects no rule version was made of (drafts), not discarded. */
export const COUNT_DRAFT_PROJECTS = `SELECT count(*)::int AS n FROM (SELECT 1 FROM split_project p
  WHERE p.organization_id = $1 AND p.discarded_at IS NULL AND NOT EXISTS (SELECT 1 FROM rule_version r WHERE r.project_id = p.id)
  LIMIT $2) drafts`;

/** $1 project: one brancher of the project at a time, to the transaction's end (the scenarios' bound). */
export const LOCK_PROJECT_SCENARIOS = `SELECT pg_advisory_xact_lock(hashtextextended('split-project-scenarios:' || $1, 0))`;

/** $1 project, $2 the most worth counting. */
export const COUNT_SCENARIOS = `SELECT count(*)::int AS n FROM (SELECT 1 FROM operating_scenario WHERE project_id = $1 LIMIT $2) scenarios`;

export const INSERT_SCENARIO = `INSERT INTO operating_scenario (id, project_id, name, branched_from_scenario_id, branched_from_revision, created_by)
  VALUES ($1, $2, $3, $4, $5, $6)`;

export const INSERT_REVISION = `INSERT INTO scenario_revision (scenario_id, revision, content, rules_digest, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${REVISION}`;

/** $1 scenario, $2 organization: a scenario of a discarded project is not found. */
export const FIND_SCENARIO = `SELECT ${SCENARIO} FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
  WHERE s.id = $1 AND p.organization_id = $2 AND p.discarded_at IS NULL`;

/** $1 scenario, $2 organization. */
export const LOCK_SCENARIO = `SELECT s.id FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
  WHERE s.id = $1 AND p.organization_id = $2 AND p.discarded_at IS NULL FOR UPDATE OF s`;

/** $1 project, $2 the cursor's scenario or null, $3 limit. */
export const LIST_SCENARIOS = `SELECT ${SCENARIO} FROM operating_scenario s WHERE s.project_id = $1 AND ($2::uuid IS NULL OR s.id > $2) ORDER BY s.id LIMIT $3`;

/** $1 scenario, $2 revision. */
export const FIND_REVISION = `SELECT ${REVISION} FROM scenario_revision WHERE scenario_id = $1 AND revision = $2`;

/** $1 scenario ids: one backward primary-key probe per scenario, so the cost follows the page, not the histories. */
export const FIND_CURRENT_REVISIONS = `SELECT current.* FROM unnest($1::uuid[]) AS s (id)
  CROSS JOIN LATERAL (SELECT ${REVISION} FROM scenario_revision WHERE scenario_id = s.id ORDER BY revision DESC LIMIT 1) current`;

/** $1 scenario, $2 the last revision served (0 for the first page), $3 limit: a forward probe of the primary key. */
export const LIST_REVISIONS = `SELECT ${REVISION_SUMMARY} FROM scenario_revision WHERE scenario_id = $1 AND revision > $2 ORDER BY revision LIMIT $3`;
