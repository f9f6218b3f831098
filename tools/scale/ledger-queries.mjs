// The hot queries of apps/standards-api/src/settlements/settlements.repository.ts (and of the running
// balance trigger of migration 1764321000000), with the parameters a ledger page binds, for the
// EXPLAIN that scale.bench.mjs writes beside the repository. Their text follows the repository's: a
// change there is made here too, and the regenerated plans show the difference in review.

const LEDGER_ENTRY = `e.id, e.settlement_run_id AS "settlementRunId", e.participant_id AS "participantId", e.legal_entity_id AS "legalEntityId",
  e.currency, e.amount, e.posted_at AS "postedAt", e.kind, e.reverses_entry_id AS "reversesEntryId"`;
const AFTER_CURSOR = `(e.posted_at, e.id) > (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3)`;

const ENTRIES = `SELECT ${LEDGER_ENTRY} FROM equity_ledger_entry e
  WHERE e.organization_id = $1 AND e.legal_entity_id = $2
    AND ($3::uuid IS NULL OR ${AFTER_CURSOR})
    AND ($4::timestamptz IS NULL OR e.posted_at >= $4)
    AND ($5::timestamptz IS NULL OR e.posted_at <= $5)
  ORDER BY e.posted_at, e.id LIMIT $6`;

const balancesBefore = (bound) => `WITH RECURSIVE currencies (currency) AS (
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

const RUN = `SELECT r.id, r.organization_id AS "organizationId", r.project_id AS "projectId", r.period_id AS "periodId",
  r.rule_version AS "ruleVersion", r.gross, r.costs, r.distributable, r.currency, r.allocations, r.digest,
  r.reverses_run_id AS "reversesRunId", r.posted_by AS "postedBy", r.posted_at AS "postedAt", r.period_end AS "periodEnd",
  r.rules_digest AS "rulesDigest", r.tiers,
  (SELECT c.id FROM settlement_run c WHERE c.reverses_run_id = r.id) AS "correctedByRunId"
  FROM settlement_run r`;

/** The settlement-run queries of the same repository, at a project with the full ledger's runs. */
export function runQueries({ organizationId, projectId, afterRunId, runId, periodId, limit }) {
  return [
    {
      name: 'findRun',
      why: 'GET /settlement-runs/{id}, and every correction.',
      sql: `${RUN} WHERE r.id = $1 AND r.organization_id = $2`,
      params: [runId, organizationId],
    },
    {
      name: 'listRuns, after a cursor (the last page)',
      why: "A page of a project's runs in posting order.",
      sql: `${RUN} WHERE r.organization_id = $1 AND r.project_id = $2
  AND ($3::uuid IS NULL OR (r.posted_at, r.id) > (SELECT a.posted_at, a.id FROM settlement_run a WHERE a.id = $3))
  ORDER BY r.posted_at, r.id LIMIT $4`,
      params: [organizationId, projectId, afterRunId, limit],
    },
    {
      name: 'standingRun',
      why: "Every posting: the period's standing run (its first, or the last correction).",
      sql: `${RUN} WHERE r.project_id = $1 AND r.period_id = $2 AND NOT EXISTS (SELECT 1 FROM settlement_run c WHERE c.reverses_run_id = r.id)`,
      params: [projectId, periodId],
    },
  ];
}

/** Each query with its name, why it is hot, its SQL and its parameters. */
export function ledgerQueries({ organizationId, legalEntityId, cursor, from, limit }) {
  return [
    {
      name: 'hasLedgerEntry',
      why: 'Every page after the first: the cursor names an entry of this ledger.',
      sql: 'SELECT 1 FROM equity_ledger_entry WHERE id = $1 AND organization_id = $2 AND legal_entity_id = $3',
      params: [cursor, organizationId, legalEntityId],
    },
    {
      name: 'ledgerEntries, first page',
      why: 'The first page: the oldest entries of the ledger.',
      sql: ENTRIES,
      params: [organizationId, legalEntityId, null, null, null, limit],
    },
    {
      name: 'ledgerEntries, after a cursor (the last page)',
      why: 'Any later page, here the last one: the entries after the cursor.',
      sql: ENTRIES,
      params: [organizationId, legalEntityId, cursor, null, null, limit],
    },
    {
      name: 'balancesBefore, after a cursor (the last page)',
      why: "The page's opening balances: each currency's latest stored balance up to the cursor, not a sum over the ledger.",
      sql: balancesBefore('(b.posted_at, b.id) <= (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3::uuid)'),
      params: [organizationId, legalEntityId, cursor],
    },
    {
      name: 'balancesBefore, from a time',
      why: 'A window starting at `from`: the balances of the entries before it.',
      sql: balancesBefore('b.posted_at < $3::timestamptz'),
      params: [organizationId, legalEntityId, from],
    },
    {
      name: 'insertRun, posting time',
      why: "Every posting: just after the organization's latest run and entry.",
      sql: `SELECT greatest(clock_timestamp(),
  (SELECT max(posted_at) FROM settlement_run WHERE organization_id = $1) + interval '1 microsecond',
  (SELECT max(posted_at) FROM equity_ledger_entry WHERE organization_id = $1) + interval '1 microsecond')::text AS at`,
      params: [organizationId],
    },
    {
      name: 'equity_ledger_running_balance trigger, latest entry',
      why: 'Every inserted entry: the latest entry of its ledger and currency, whose balance it continues.',
      sql: `SELECT posted_at, id, balance FROM equity_ledger_entry
  WHERE organization_id = $1 AND legal_entity_id = $2 AND currency = $3
  ORDER BY posted_at DESC, id DESC LIMIT 1`,
      params: [organizationId, legalEntityId, 'EUR'],
    },
  ];
}
