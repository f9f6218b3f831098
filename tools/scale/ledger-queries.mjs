// The hot queries of apps/standards-api/src/settlements/settlements.repository.ts (and of the running
// balance trigger of migration 1764321000000), with the parameters a ledger page binds, for the
// EXPLAIN that scale.bench.mjs writes beside the repository. The repository's SQL is imported from
// settlements.repository.sql.ts (plain text, no decorators, so Node loads it here as it is), never copied.
import {
  BALANCE_BOUNDS,
  FIND_RUN,
  HAS_LEDGER_ENTRY,
  LEDGER_ENTRIES,
  LIST_RUNS,
  POSTING_TIME,
  RULE_VERSION_IN_FORCE,
  STANDING_RUN,
  balancesBefore,
} from '../../apps/standards-api/src/settlements/settlements.repository.sql.ts';

/** The settlement-run queries of the same repository, at a project with the full ledger's runs. */
export function runQueries({ organizationId, projectId, afterRunId, runId, periodId, limit }) {
  return [
    {
      name: 'findRun',
      why: 'GET /settlement-runs/{id}, and every correction.',
      sql: FIND_RUN,
      params: [runId, organizationId],
    },
    {
      name: 'listRuns, after a cursor (the last page)',
      why: "A page of a project's runs in posting order.",
      sql: LIST_RUNS,
      params: [organizationId, projectId, afterRunId, limit],
    },
    {
      name: 'standingRun',
      why: "Every posting: the period's standing run (its first, or the last correction).",
      sql: STANDING_RUN,
      params: [projectId, periodId],
    },
  ];
}

/** A posting's own reads on a project with rule versions (all but the first in the future) and runs, for a period not settled yet. */
export function postingQueries({ projectId, periodId, at, ruleVersions, runs }) {
  return [
    {
      name: `ruleVersionInForce (a project of ${ruleVersions} rule versions)`,
      why: "Every posting, its challenge and its confirmed write: the latest rule version in force at the period's end, here the first (the others start in the future).",
      sql: RULE_VERSION_IN_FORCE,
      params: [projectId, at],
    },
    {
      name: `standingRun (a project of ${runs.toLocaleString('en')} runs, a period not settled yet)`,
      why: "Every posting, its challenge and its confirmed write: the period's standing run, none for a new period.",
      sql: STANDING_RUN,
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
      sql: HAS_LEDGER_ENTRY,
      params: [cursor, organizationId, legalEntityId],
    },
    {
      name: 'ledgerEntries, first page',
      why: 'The first page: the oldest entries of the ledger.',
      sql: LEDGER_ENTRIES,
      params: [organizationId, legalEntityId, null, null, null, limit],
    },
    {
      name: 'ledgerEntries, after a cursor (the last page)',
      why: 'Any later page, here the last one: the entries after the cursor.',
      sql: LEDGER_ENTRIES,
      params: [organizationId, legalEntityId, cursor, null, null, limit],
    },
    {
      name: 'balancesBefore, after a cursor (the last page)',
      why: "The page's opening balances: each currency's latest stored balance up to the cursor, not a sum over the ledger.",
      sql: balancesBefore(BALANCE_BOUNDS.cursor),
      params: [organizationId, legalEntityId, cursor],
    },
    {
      name: 'balancesBefore, from a time',
      why: 'A window starting at `from`: the balances of the entries before it.',
      sql: balancesBefore(BALANCE_BOUNDS.time),
      params: [organizationId, legalEntityId, from],
    },
    {
      name: 'insertRun, posting time',
      why: "Every posting: just after the organization's latest run and entry.",
      sql: POSTING_TIME,
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
