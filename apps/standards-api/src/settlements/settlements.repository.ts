import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { databaseNow } from '@stdreg/server-kit/database';
import type { FormattedSettlement, PeriodSettlement, ScenarioContent } from '@stdreg/split-engine';
import {
  ALLOCATION_ENTRIES,
  BALANCE_BOUNDS,
  CURSOR_BEFORE_TIME,
  FIND_RUN,
  HAS_LEDGER_ENTRY,
  HAS_RUN,
  INSERT_ENTRIES,
  INSERT_RUN,
  LEDGER_ENTRIES,
  HOLD_PROJECT,
  LEDGER_LOCK,
  LIST_RUNS,
  POSTING_TIME,
  RULE_VERSION_IN_FORCE,
  STANDING_RUN,
  balancesBefore,
} from './settlements.repository.sql';

export { LEDGER_LOCK } from './settlements.repository.sql';

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

/** Every query of settlement runs and equity ledgers; always within one organization. */
@Injectable()
export class SettlementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findRun(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<SettlementRun | null> {
    const rows: SettlementRun[] = await manager.query(FIND_RUN, [id, organizationId]);
    return rows[0] ?? null;
  }

  /** Whether a run of the organization's project has this id (what a cursor of the project's runs may name). */
  async hasRun(organizationId: string, projectId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(HAS_RUN, [id, organizationId, projectId]);
    return rows.length > 0;
  }

  /** Runs in posting order; a cursor names a run, whose position is read in SQL (microsecond timestamps). */
  async listRuns(organizationId: string, projectId: string, afterId: string | undefined, limit: number): Promise<SettlementRun[]> {
    return this.dataSource.query(LIST_RUNS, [organizationId, projectId, afterId ?? null, limit]);
  }

  /** The latest rule version whose effective time is at or before `at` (versions start later as they count up). */
  async ruleVersionInForce(manager: EntityManager, projectId: string, at: Date): Promise<RuleVersionInForce | null> {
    const rows: RuleVersionInForce[] = await manager.query(RULE_VERSION_IN_FORCE, [projectId, at]);
    return rows[0] ?? null;
  }

  /** The run that stands for the period: its first run, or the last correction in its chain. */
  async standingRun(manager: EntityManager, projectId: string, periodId: string): Promise<SettlementRun | null> {
    const rows: SettlementRun[] = await manager.query(STANDING_RUN, [projectId, periodId]);
    return rows[0] ?? null;
  }

  /** The run's own allocation entries (not the reversals it made), in posting order. */
  async allocationEntries(manager: EntityManager, runId: string): Promise<LedgerEntry[]> {
    return manager.query(ALLOCATION_ENTRIES, [runId]);
  }

  async lockLedgers(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.query(LEDGER_LOCK, [organizationId]);
  }

  /** Holds the project's row until the posting commits, so no rule version can be numbered meanwhile (after lockLedgers). */
  async holdProject(manager: EntityManager, projectId: string): Promise<void> {
    await manager.query(HOLD_PROJECT, [projectId]);
  }

  /** The database's clock: a period has ended by it, whichever replica posts. */
  async now(manager: EntityManager = this.dataSource.manager): Promise<Date> {
    return databaseNow(manager);
  }

  /**
   * Appends the run and its entries at one posting time: now, or just after the organization's latest
   * posting if the clock says otherwise, so (posted_at, id) only grows. Entry i is posted at that time
   * plus i microseconds, keeping the order of `entries` in the ledgers. The database stores each
   * entry's running balance as it is inserted (migration LedgerRunningBalance). Call under lockLedgers.
   */
  async insertRun(manager: EntityManager, run: NewSettlementRun, entries: NewLedgerEntry[]): Promise<void> {
    const rows: { at: string }[] = await manager.query(POSTING_TIME, [run.organizationId]);
    // As text, so the microseconds survive the trip (a JavaScript Date keeps milliseconds).
    const at = rows[0]!.at;
    await manager.query(INSERT_RUN, [
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
    ]);
    await manager.query(INSERT_ENTRIES, [
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
    ]);
  }

  async hasLedgerEntry(manager: EntityManager, organizationId: string, legalEntityId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(HAS_LEDGER_ENTRY, [id, organizationId, legalEntityId]);
    return rows.length > 0;
  }

  /** Up to `limit` entries of the window, oldest first. */
  async ledgerEntries(manager: EntityManager, window: LedgerWindow, limit: number): Promise<LedgerEntry[]> {
    return manager.query(LEDGER_ENTRIES, [
      window.organizationId,
      window.legalEntityId,
      window.afterEntryId ?? null,
      window.from ?? null,
      window.to ?? null,
      limit,
    ]);
  }

  /**
   * Each currency's running balance just before the window starts, whatever `from` hides: a running
   * balance is the ledger's balance, not the window's. Read from the stored balance of each currency's
   * latest entry before the start (one index lookup per currency), never by adding up the entries.
   */
  async balancesBefore(manager: EntityManager, window: LedgerWindow): Promise<{ currency: string; total: string }[]> {
    const start = await this.windowStart(manager, window);
    // At the beginning of the ledger, nothing comes before.
    if (start === null) return [];
    return manager.query(balancesBefore(BALANCE_BOUNDS[start.bound]), [window.organizationId, window.legalEntityId, start.value]);
  }

  /** The later of the window's cursor and its `from`: a page after a cursor may also start at a later `from`. */
  private async windowStart(manager: EntityManager, window: LedgerWindow): Promise<{ bound: 'cursor' | 'time'; value: string } | null> {
    const { afterEntryId, from } = window;
    if (afterEntryId === undefined) return from === undefined ? null : { bound: 'time', value: from };
    if (from === undefined) return { bound: 'cursor', value: afterEntryId };
    const rows: { before: boolean }[] = await manager.query(CURSOR_BEFORE_TIME, [afterEntryId, from]);
    return rows[0]?.before === true ? { bound: 'time', value: from } : { bound: 'cursor', value: afterEntryId };
  }
}
