import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { FormattedSettlement, PeriodSettlement, ScenarioContent } from '@stdreg/split-engine';

/** A participant's share of a run, as appended to its legal entity's ledger. */
export type RunAllocation = { participantId: string; legalEntityId: string; amount: string };

export interface SettlementRun {
  id: string;
  organizationId: string;
  projectId: string;
  periodId: string;
  ruleVersion: number;
  gross: string;
  costs: string;
  distributable: string;
  currency: string;
  allocations: RunAllocation[];
  digest: string;
  reversesRunId: string | null;
  postedBy: string;
  postedAt: Date;
  periodEnd: Date;
  rulesDigest: string;
  tiers: FormattedSettlement<PeriodSettlement>['tiers'];
  /** The run that corrected this one, if any. */
  correctedByRunId: string | null;
}

export type NewSettlementRun = Omit<SettlementRun, 'postedAt' | 'correctedByRunId'>;

export interface NewLedgerEntry {
  id: string;
  legalEntityId: string;
  participantId: string;
  amount: string;
  kind: 'allocation' | 'reversal';
  reversesEntryId: string | null;
}

export interface RuleVersionInForce {
  version: number;
  rulesDigest: string;
  rules: ScenarioContent;
}

export interface LedgerEntry {
  id: string;
  settlementRunId: string;
  participantId: string;
  legalEntityId: string;
  currency: string;
  amount: string;
  postedAt: Date;
  kind: 'allocation' | 'reversal';
  reversesEntryId: string | null;
}

/** Where a ledger page starts: after a cursor's entry, else at `from`, else at the beginning. */
export interface LedgerWindow {
  organizationId: string;
  legalEntityId: string;
  afterEntryId: string | undefined;
  from: string | undefined;
  to: string | undefined;
}

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

/** Every query of settlement runs and equity ledgers; always within one organization. */
@Injectable()
export class SettlementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findRun(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<SettlementRun | null> {
    const rows: SettlementRun[] = await manager.query(`${RUN} WHERE r.id = $1 AND r.organization_id = $2`, [id, organizationId]);
    return rows[0] ?? null;
  }

  /** Runs in posting order; a cursor names a run, whose position is read in SQL (microsecond timestamps). */
  async listRuns(organizationId: string, projectId: string, afterId: string | undefined, limit: number): Promise<SettlementRun[]> {
    return this.dataSource.query(
      `${RUN} WHERE r.organization_id = $1 AND r.project_id = $2
         AND ($3::uuid IS NULL OR (r.posted_at, r.id) > (SELECT a.posted_at, a.id FROM settlement_run a WHERE a.id = $3))
       ORDER BY r.posted_at, r.id LIMIT $4`,
      [organizationId, projectId, afterId ?? null, limit],
    );
  }

  /** The latest rule version whose effective time is at or before `at` (versions start later as they count up). */
  async ruleVersionInForce(manager: EntityManager, projectId: string, at: Date): Promise<RuleVersionInForce | null> {
    const rows: RuleVersionInForce[] = await manager.query(
      `SELECT version, rules_digest AS "rulesDigest", rules FROM rule_version WHERE project_id = $1 AND effective_from <= $2
        ORDER BY version DESC LIMIT 1`,
      [projectId, at],
    );
    return rows[0] ?? null;
  }

  /** The run that stands for the period: its first run, or the last correction in its chain. */
  async standingRun(manager: EntityManager, projectId: string, periodId: string): Promise<SettlementRun | null> {
    const rows: SettlementRun[] = await manager.query(
      `${RUN} WHERE r.project_id = $1 AND r.period_id = $2 AND NOT EXISTS (SELECT 1 FROM settlement_run c WHERE c.reverses_run_id = r.id)`,
      [projectId, periodId],
    );
    return rows[0] ?? null;
  }

  /** The run's own allocation entries (not the reversals it made), in posting order. */
  async allocationEntries(manager: EntityManager, runId: string): Promise<LedgerEntry[]> {
    return manager.query(
      `SELECT ${LEDGER_ENTRY} FROM equity_ledger_entry e WHERE e.settlement_run_id = $1 AND e.kind = 'allocation' ORDER BY e.posted_at, e.id`,
      [runId],
    );
  }

  async lockLedgers(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.query(LEDGER_LOCK, [organizationId]);
  }

  /**
   * Appends the run and its entries at one posting time: now, or just after the organization's latest
   * posting if the clock says otherwise, so (posted_at, id) only grows. Entry i is posted at that time
   * plus i microseconds, keeping the order of `entries` in the ledgers. The database stores each
   * entry's running balance as it is inserted (migration LedgerRunningBalance). Call under lockLedgers.
   */
  async insertRun(manager: EntityManager, run: NewSettlementRun, entries: NewLedgerEntry[]): Promise<void> {
    const rows: { at: string }[] = await manager.query(
      `SELECT greatest(clock_timestamp(),
         (SELECT max(posted_at) FROM settlement_run WHERE organization_id = $1) + interval '1 microsecond',
         (SELECT max(posted_at) FROM equity_ledger_entry WHERE organization_id = $1) + interval '1 microsecond')::text AS at`,
      [run.organizationId],
    );
    // As text, so the microseconds survive the trip (a JavaScript Date keeps milliseconds).
    const at = rows[0]!.at;
    await manager.query(
      `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest,
         reverses_run_id, posted_by, posted_at, period_end, rules_digest, tiers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::timestamptz, $15, $16, $17)`,
      [
        run.id,
        run.organizationId,
        run.projectId,
        run.periodId,
        run.ruleVersion,
        run.gross,
        run.costs,
        run.distributable,
        run.currency,
        JSON.stringify(run.allocations),
        run.digest,
        run.reversesRunId,
        run.postedBy,
        at,
        run.periodEnd,
        run.rulesDigest,
        JSON.stringify(run.tiers),
      ],
    );
    await manager.query(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, kind, reverses_entry_id, posted_at)
       SELECT e.id, $2, e.legal_entity_id, $3, e.participant_id, $4, e.amount, e.kind, e.reverses_entry_id, $5::timestamptz + (e.position - 1) * interval '1 microsecond'
         FROM jsonb_to_recordset($1::jsonb)
           AS e(id uuid, legal_entity_id text, participant_id text, amount text, kind text, reverses_entry_id uuid, position integer)`,
      [
        JSON.stringify(
          entries.map((entry, index) => ({
            id: entry.id,
            legal_entity_id: entry.legalEntityId,
            participant_id: entry.participantId,
            amount: entry.amount,
            kind: entry.kind,
            reverses_entry_id: entry.reversesEntryId,
            position: index + 1,
          })),
        ),
        run.organizationId,
        run.id,
        run.currency,
        at,
      ],
    );
  }

  async hasLedgerEntry(manager: EntityManager, organizationId: string, legalEntityId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'SELECT 1 FROM equity_ledger_entry WHERE id = $1 AND organization_id = $2 AND legal_entity_id = $3',
      [id, organizationId, legalEntityId],
    );
    return rows.length > 0;
  }

  /** Up to `limit` entries of the window, oldest first. */
  async ledgerEntries(manager: EntityManager, window: LedgerWindow, limit: number): Promise<LedgerEntry[]> {
    return manager.query(
      `SELECT ${LEDGER_ENTRY} FROM equity_ledger_entry e
        WHERE e.organization_id = $1 AND e.legal_entity_id = $2
          AND ($3::uuid IS NULL OR ${AFTER_CURSOR})
          AND ($4::timestamptz IS NULL OR e.posted_at >= $4)
          AND ($5::timestamptz IS NULL OR e.posted_at <= $5)
        ORDER BY e.posted_at, e.id LIMIT $6`,
      [window.organizationId, window.legalEntityId, window.afterEntryId ?? null, window.from ?? null, window.to ?? null, limit],
    );
  }

  /**
   * Each currency's running balance just before the window starts, whatever `from` hides: a running
   * balance is the ledger's balance, not the window's. Read from the stored balance of each currency's
   * latest entry before the start (one index lookup per currency), never by adding up the entries.
   */
  async balancesBefore(manager: EntityManager, window: LedgerWindow): Promise<{ currency: string; total: string }[]> {
    // At the beginning of the ledger, nothing comes before.
    if (window.afterEntryId === undefined && window.from === undefined) return [];
    const bound =
      window.afterEntryId !== undefined
        ? `(b.posted_at, b.id) <= (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3::uuid)`
        : 'b.posted_at < $3::timestamptz';
    return manager.query(
      `WITH RECURSIVE currencies (currency) AS (
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
        WHERE c.currency IS NOT NULL ORDER BY c.currency`,
      [window.organizationId, window.legalEntityId, window.afterEntryId ?? window.from],
    );
  }
}
