import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  DEFAULT_PAGE_LIMIT,
  type EquityLedgerEntryDto,
  type EquityLedgerPageDto,
  type EquityLedgerQueryDto,
  type PageQueryDto,
  type SettlementRunDto,
} from '@stdreg/contracts';
import { decodeCursor, encodeCursor, keysetPage, isUuid } from '@stdreg/server-kit';
import { formatAmount, parseAmount, parseTotal } from '@stdreg/split-engine';
import type { Caller } from '../callers/caller';
import { SplitProjectsService } from '../split-projects/split-projects.service';
import { invalidCursor, legalEntityIdTooLong, runNotFound, timeRangeEmpty } from './settlements.errors';
import { type LedgerEntry, type LedgerWindow, SettlementsRepository, type SettlementRun } from './settlements.repository';

const MAX_LEGAL_ENTITY_ID_LENGTH = 200;

/** Reads of posted settlement runs and of equity ledgers with running balances; posting is in SettlementPostingService. */
@Injectable()
export class SettlementsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settlements: SettlementsRepository,
    private readonly projects: SplitProjectsService,
  ) {}

  async getRun(id: string, auth: Caller): Promise<SettlementRunDto> {
    const run = await this.settlements.findRun(auth.organizationId, id);
    if (!run) throw runNotFound(id);
    return toRunDto(run);
  }

  /** In posting order, which is commit order (see SettlementsRepository.insertRun). */
  async listRuns(projectId: string, query: PageQueryDto, auth: Caller): Promise<{ items: SettlementRunDto[]; nextCursor: string | null }> {
    await this.projects.requireProject(projectId, auth);
    return keysetPage(
      `settlement-runs:${projectId}`,
      query,
      (afterId, limit) => this.runsAfter(auth.organizationId, projectId, uuidCursor(afterId), limit),
      toRunDto,
    );
  }

  /** A cursor names a run of this project: any other, another organization's included, is as forged as one naming no run. */
  private async runsAfter(organizationId: string, projectId: string, afterId: string | undefined, limit: number): Promise<SettlementRun[]> {
    if (afterId !== undefined && !(await this.settlements.hasRun(organizationId, projectId, afterId))) throw invalidCursor();
    return this.settlements.listRuns(organizationId, projectId, afterId, limit);
  }

  /**
   * One page of a legal entity's ledger, oldest first. A legal entity with no entries in the
   * organization has an empty ledger (not a 404): entries appear when settlements are posted, and
   * telling "no such entity" from "nothing posted yet" would need a registry of entities we do not own.
   */
  async ledger(legalEntityId: string, query: EquityLedgerQueryDto, auth: Caller): Promise<EquityLedgerPageDto> {
    if (legalEntityId.length > MAX_LEGAL_ENTITY_ID_LENGTH) {
      throw legalEntityIdTooLong(MAX_LEGAL_ENTITY_ID_LENGTH);
    }
    if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) > Date.parse(query.to)) {
      throw timeRangeEmpty();
    }
    const list = `equity-ledger:${legalEntityId}`;
    const window: LedgerWindow = {
      organizationId: auth.organizationId,
      legalEntityId,
      afterEntryId: query.cursor === undefined ? undefined : uuidCursor(decodeCursor(list, query.cursor)),
      from: query.from,
      to: query.to,
    };
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    // One snapshot, so the opening balances and the page's entries agree even while entries are posted.
    const { entries: found, opening } = await this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      if (
        window.afterEntryId !== undefined &&
        !(await this.settlements.hasLedgerEntry(manager, auth.organizationId, legalEntityId, window.afterEntryId))
      ) {
        throw invalidCursor();
      }
      return {
        entries: await this.settlements.ledgerEntries(manager, window, limit + 1),
        opening: await this.settlements.balancesBefore(manager, window),
      };
    });
    const page = found.slice(0, limit);
    const running = new Map(opening.map(({ currency, total }) => [currency, parseTotal(total, currency)]));
    const entries = page.map((entry) => toEntryDto(entry, running));
    return {
      legalEntityId,
      entries,
      balances: [...running.keys()]
        .sort(byCodeUnits)
        .map((currency) => ({ currency, balance: formatAmount(running.get(currency)!, currency) })),
      nextCursor: found.length > limit ? encodeCursor(list, page[page.length - 1]!.id) : null,
    };
  }
}

/** Adds the entry to its currency's running balance (exact bigint minor units) and shows both. */
function toEntryDto(entry: LedgerEntry, running: Map<string, bigint>): EquityLedgerEntryDto {
  const balance = (running.get(entry.currency) ?? 0n) + parseAmount(entry.amount, entry.currency);
  running.set(entry.currency, balance);
  return {
    id: entry.id,
    settlementRunId: entry.settlementRunId,
    participantId: entry.participantId,
    currency: entry.currency,
    amount: entry.amount,
    balance: formatAmount(balance, entry.currency),
    postedAt: entry.postedAt.toISOString(),
    kind: entry.kind,
    reversesEntryId: entry.reversesEntryId,
  };
}

export function toRunDto(run: SettlementRun): SettlementRunDto {
  return {
    id: run.id,
    organizationId: run.organizationId,
    projectId: run.projectId,
    periodId: run.periodId,
    ruleVersion: run.ruleVersion,
    gross: run.gross,
    costs: run.costs,
    distributable: run.distributable,
    currency: run.currency,
    allocations: run.allocations,
    digest: run.digest,
    reversesRunId: run.reversesRunId,
    postedBy: run.postedBy,
    postedAt: run.postedAt.toISOString(),
    periodEnd: run.periodEnd.toISOString(),
    rulesDigest: run.rulesDigest,
    tiers: run.tiers,
    correctedByRunId: run.correctedByRunId,
  };
}

/** A cursor's key goes into a uuid comparison; a forged one is a bad cursor, not a database error. */
function uuidCursor(key: string | undefined): string | undefined {
  if (key !== undefined && !isUuid(key)) throw invalidCursor();
  return key;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
