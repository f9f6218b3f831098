// The SQL of SettlementsRepository, as plain text: the repository runs it, and the scale bench
// (tools/scale/ledger-queries.mjs, plain JavaScript run by Node, which cannot load the decorated
// repository) explains the same text at full size into settlements.repository.explain.md.

// Entries are ordered by (posted_at, id); a cursor names an entry, whose position is read in SQL so
// that timestamps keep their full microsecond precision.
const AFTER_CURSOR = `(e.posted_at, e.id) > (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3)`;

const RUN = `SELECT r.id, r.organization_id AS "organizationId", r.project_id AS "projectId", r.period_id AS "periodId",
  r.rule_version AS "ruleVersion", r.gross, r.costs, r.distributable, r.currency, r.allocations, r.digest,
  r.reverses_run_id AS "reversesRunId", r.posted_by AS "postedBy", r.posted_at AS "postedAt", r.period_end AS "periodEnd",
  r.rules_digest AS "rulesDigest", r.tiers,
  (SELECT c.id FROM settlement_run c WHERE c.reverses_run_id = r.id) AS "correctedByRunId"
  FROM settlement_run r`;

const LEDGER_ENTRY = `e.id, e.settlement_run_id AS "settlementRunId", e.participant_id AS "participantId", e.legal_entity_id AS "legalEntityId",
  e.currency, e.amount, e.posted_at AS "postedAt", e.kind, e.reverses_entry_id AS "reversesEntryId"`;

// Postings of one organization take this lock (until commit) before they read the ledgers or choose
// their posting time; so posting order is commit order, and a cursor never has a later commit behind it.
export const LEDGER_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('settlement-ledgers:' || $1, 0))`;

/** $1 project: held (shared) while a posting reads the rule version in force; a version is numbered under its exclusive lock. */
export const HOLD_PROJECT = 'SELECT id FROM split_project WHERE id = $1 FOR SHARE';

/** $1 run id, $2 organization. */
export const FIND_RUN = `${RUN} WHERE r.id = $1 AND r.organization_id = $2`;

/** $1 organization, $2 project, $3 the cursor's run (a run of that project) or null, $4 limit. */
export const LIST_RUNS = `${RUN} WHERE r.organization_id = $1 AND r.project_id = $2
  AND ($3::uuid IS NULL OR (r.posted_at, r.id) > (SELECT a.posted_at, a.id FROM settlement_run a WHERE a.id = $3 AND a.organization_id = $1 AND a.project_id = $2))
  ORDER BY r.posted_at, r.id LIMIT $4`;

/** $1 run, $2 organization, $3 project. */
export const HAS_RUN = 'SELECT 1 FROM settlement_run WHERE id = $1 AND organization_id = $2 AND project_id = $3';

/**
 * $1 project, $2 at: the latest version that started by then. Versions start in version order (a new
 * one only after the latest, RuleVersionsService.create), so the latest start is the latest version:
 * one backward probe of rule_version_effective, however many versions start later (issue 21).
 */
export const RULE_VERSION_IN_FORCE = `SELECT version, rules_digest AS "rulesDigest", rules FROM rule_version
  WHERE project_id = $1 AND effective_from <= $2
  ORDER BY effective_from DESC, version DESC LIMIT 1`;

/** $1 project, $2 period. */
export const STANDING_RUN = `${RUN} WHERE r.project_id = $1 AND r.period_id = $2 AND NOT EXISTS (SELECT 1 FROM settlement_run c WHERE c.reverses_run_id = r.id)`;

/** $1 run. */
export const ALLOCATION_ENTRIES = `SELECT ${LEDGER_ENTRY} FROM equity_ledger_entry e WHERE e.settlement_run_id = $1 AND e.kind = 'allocation' ORDER BY e.posted_at, e.id`;

/** $1 organization: now, or just after its latest run and entry. As text, so the microseconds survive. */
export const POSTING_TIME = `SELECT greatest(clock_timestamp(),
  (SELECT max(posted_at) FROM settlement_run WHERE organization_id = $1) + interval '1 microsecond',
  (SELECT max(posted_at) FROM equity_ledger_entry WHERE organization_id = $1) + interval '1 microsecond')::text AS at`;

export const INSERT_RUN = `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest,
  reverses_run_id, posted_by, posted_at, period_end, rules_digest, tiers)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::timestamptz, $15, $16, $17)`;

/** $1 the entries as JSON (with their 1-based positions), $2 organization, $3 run, $4 currency, $5 posting time. */
export const INSERT_ENTRIES = `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, kind, reverses_entry_id, posted_at)
  SELECT e.id, $2, e.legal_entity_id, $3, e.participant_id, $4, e.amount, e.kind, e.reverses_entry_id, $5::timestamptz + (e.position - 1) * interval '1 microsecond'
    FROM jsonb_to_recordset($1::jsonb)
      AS e(id uuid, legal_entity_id text, participant_id text, amount text, kind text, reverses_entry_id uuid, position integer)`;

/** $1 entry, $2 organization, $3 legal entity. */
export const HAS_LEDGER_ENTRY = 'SELECT 1 FROM equity_ledger_entry WHERE id = $1 AND organization_id = $2 AND legal_entity_id = $3';

/** $1 organization, $2 legal entity, $3 the cursor's entry or null, $4 from or null, $5 to or null (to the millisecond, as times are shown: an entry shown at `to` is in), $6 limit. */
export const LEDGER_ENTRIES = `SELECT ${LEDGER_ENTRY} FROM equity_ledger_entry e
  WHERE e.organization_id = $1 AND e.legal_entity_id = $2
    AND ($3::uuid IS NULL OR ${AFTER_CURSOR})
    AND ($4::timestamptz IS NULL OR e.posted_at >= $4)
    AND ($5::timestamptz IS NULL OR e.posted_at < date_trunc('milliseconds', $5::timestamptz) + interval '1 millisecond')
  ORDER BY e.posted_at, e.id LIMIT $6`;

/** Where a window starts, for BALANCES_BEFORE: up to a cursor's entry ($3 an entry id), or before a time ($3 a time). */
export const BALANCE_BOUNDS = {
  cursor: `(b.posted_at, b.id) <= (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3::uuid)`,
  time: 'b.posted_at < $3::timestamptz',
} as const;

/** $1 the cursor's entry, $2 a window's `from`: whether the entry was posted before it (then `from` starts the window later). */
export const CURSOR_BEFORE_TIME = `SELECT c.posted_at < $2::timestamptz AS before FROM equity_ledger_entry c WHERE c.id = $1`;

/**
 * Each currency's stored running balance at its latest entry within the bound ($1 organization, $2 legal
 * entity, $3 the bound's value): the currencies by a loose index scan, then one backward probe each.
 */
export const balancesBefore = (
  bound: (typeof BALANCE_BOUNDS)[keyof typeof BALANCE_BOUNDS],
): string => `WITH RECURSIVE currencies (currency) AS (
    (SELECT e.currency FROM equity_ledger_entry e WHERE e.organization_id = $1 AND e.legal_entity_id = $2 ORDER BY e.currency LIMIT 1)
    UNION ALL
    SELECT (SELECT e.currency FROM equity_ledger_entry e
             WHERE e.organization_id = $1 AND e.legal_entity_id = $2 AND e.currency > c.currency ORDER BY e.currency LIMIT 1)
      FROM currencies c WHERE c.currency IS NOT NULL
  )
  SELECT c.currency, latest.balance AS total FROM currencies c
    CROSS JOIN LATERAL (SELECT b.balance FROM equity_ledger_entry b
       WHERE b.organization_id = $1 AND b.legal_entity_id = $2 AND b.currency = c.currency AND ${bound}
       ORDER BY b.posted_at DESC, b.id DESC LIMIT 1) latest
   WHERE c.currency IS NOT NULL ORDER BY c.currency`;
