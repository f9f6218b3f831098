import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface SettlementRunRow {
  id: string;
  organization_id: string;
  project_id: string;
  period_id: string;
  rule_version: number;
  gross: string;
  costs: string;
  distributable: string;
  currency: string;
  allocations: Record<string, unknown>[];
  digest: string;
  reverses_run_id: string | null;
  posted_by: string;
  posted_at: Date;
}

export interface LedgerEntryRow {
  id: string;
  settlement_run_id: string;
  participant_id: string;
  currency: string;
  amount: string;
  posted_at: Date;
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
const UP_TO_CURSOR = `(e.posted_at, e.id) <= (SELECT c.posted_at, c.id FROM equity_ledger_entry c WHERE c.id = $3)`;

/** Every query of settlement runs and equity ledgers (read models); always within one organization. */
@Injectable()
export class SettlementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findRun(organizationId: string, id: string): Promise<SettlementRunRow | null> {
    const rows: SettlementRunRow[] = await this.dataSource.query('SELECT * FROM settlement_run WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    return rows[0] ?? null;
  }

  async listRuns(organizationId: string, projectId: string, afterId: string | undefined, limit: number): Promise<SettlementRunRow[]> {
    return this.dataSource.query(
      `SELECT * FROM settlement_run WHERE organization_id = $1 AND project_id = $2 AND ($3::uuid IS NULL OR id > $3) ORDER BY id LIMIT $4`,
      [organizationId, projectId, afterId ?? null, limit],
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
  async ledgerEntries(manager: EntityManager, window: LedgerWindow, limit: number): Promise<LedgerEntryRow[]> {
    return manager.query(
      `SELECT e.id, e.settlement_run_id, e.participant_id, e.currency, e.amount, e.posted_at FROM equity_ledger_entry e
        WHERE e.organization_id = $1 AND e.legal_entity_id = $2
          AND ($3::uuid IS NULL OR ${AFTER_CURSOR})
          AND ($4::timestamptz IS NULL OR e.posted_at >= $4)
          AND ($5::timestamptz IS NULL OR e.posted_at <= $5)
        ORDER BY e.posted_at, e.id LIMIT $6`,
      [window.organizationId, window.legalEntityId, window.afterEntryId ?? null, window.from ?? null, window.to ?? null, limit],
    );
  }

  /**
   * Each currency's exact sum (PostgreSQL numeric, a decimal string) of every entry before the window
   * starts, whatever `from` hides: a running balance is the ledger's balance, not the window's.
   */
  async balancesBefore(manager: EntityManager, window: LedgerWindow): Promise<{ currency: string; total: string }[]> {
    return manager.query(
      `SELECT e.currency, sum(e.amount::numeric)::text AS total FROM equity_ledger_entry e
        WHERE e.organization_id = $1 AND e.legal_entity_id = $2
          AND CASE WHEN $3::uuid IS NOT NULL THEN ${UP_TO_CURSOR} ELSE e.posted_at < $4::timestamptz END
        GROUP BY e.currency ORDER BY e.currency`,
      [window.organizationId, window.legalEntityId, window.afterEntryId ?? null, window.from ?? null],
    );
  }
}
