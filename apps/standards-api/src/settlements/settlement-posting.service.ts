import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PostSettlementRunRequestDto, SettlementChallengeDto, SettlementRunDto } from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import {
  canonicalJson,
  formatAmount,
  formatSettlement,
  parseAmount,
  settlePeriod,
  validateScenario,
  type Participant,
  type PeriodSettlement,
} from '@stdreg/split-engine';
import { actorOf, type Caller } from '../callers/caller';
import { humanRequired } from '../callers/callers.errors';
import { ConfirmationsService, refused, written } from '../confirmations/confirmations.service';
import { SplitProjectsService, type SplitProject } from '../split-projects/split-projects.service';
import { WriteAudit } from '../write-audit/write-audit.service';
import { PartnerEventsService } from '../events/events.service';
import {
  correctedRunNotFound,
  correctionOfAnotherPeriod,
  invalidActuals,
  invalidPeriodEnd,
  noRuleVersionInForce,
  periodAlreadySettled,
  periodEndInFuture,
  periodSettledMeanwhile,
  runAlreadyCorrected,
  settlementChanged,
} from './settlements.errors';
import {
  type NewLedgerEntry,
  type NewSettlementRun,
  type RunAllocation,
  SettlementsRepository,
  type SettlementRun,
} from './settlements.repository';
import { postingSummary } from './settlement-summary';
import { toRunDto } from './settlements.service';

/** What a posting would write, computed by split-engine from the request and the rule version in force. */
interface Posting {
  periodId: string;
  periodEnd: Date;
  ruleVersion: number;
  rulesDigest: string;
  participants: Participant[];
  settlement: PeriodSettlement;
  correctsRunId: string | null;
  reversals: NewLedgerEntry[];
  allocations: NewLedgerEntry[];
  /** sha256 over the canonical JSON of everything the run and its entries say. */
  digest: string;
}

/** What a posting token confirms: the request as understood, and the digest of what was shown. */
interface PostingBinding {
  periodId: string;
  periodEnd: string;
  revenue: string;
  costs: string;
  correctsRunId: string | null;
  digest: string;
}

/**
 * Posting a settlement run: the formal write that settles one period's actuals under the rule
 * version in force at the period's end and appends each participant's allocation to its legal
 * entity's equity ledger, after an explicit confirmation in two steps.
 */
@Injectable()
export class SettlementPostingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settlements: SettlementsRepository,
    private readonly projects: SplitProjectsService,
    private readonly confirmations: ConfirmationsService,
    private readonly audit: WriteAudit,
    private readonly events: PartnerEventsService,
  ) {}

  /** Without a token: 428 with the challenge. With it: the run, its ledger entries and the audit record, in one transaction. */
  async post(projectId: string, request: PostSettlementRunRequestDto, auth: Caller): Promise<SettlementRunDto> {
    if (auth.subject.kind !== 'human')
      throw await this.audit.refused(auth, 'settlement-run.post', projectId, humanRequired('post a settlement run'));
    const project = await this.projects.requireProject(projectId, auth);
    const run = await this.confirmations.confirmedWrite<PostingBinding, Posting, SettlementRun>({
      scope: { action: 'settlement-run:post', projectId: project.id, auth },
      token: request.confirmationToken,
      what: 'Posting a settlement run',
      confirms: 'period, period end, revenue, costs or corrected run',
      challenge: async () => {
        const posting = await this.posting(this.dataSource.manager, project, request, auth);
        return { shown: challengeOf(project, posting), binding: bindingOf(request, posting) };
      },
      prepare: async (manager) => {
        await this.settlements.lockLedgers(manager, auth.organizationId);
        await this.settlements.holdProject(manager, project.id);
        return this.posting(manager, project, request, auth);
      },
      matches: (bound, posting) => sameRequest(bound, bindingOf(request, posting)),
      write: async (manager, bound, posting) => {
        if (bound.digest !== posting.digest) return refused(settlementChanged());
        return written(await this.write(manager, project, posting, auth));
      },
    });
    return toRunDto(run);
  }

  /** The run, its ledger entries and the audit record; the caller holds the ledger lock. */
  private async write(manager: EntityManager, project: SplitProject, posting: Posting, auth: Caller): Promise<SettlementRun> {
    const formatted = formatSettlement(posting.settlement);
    const run: NewSettlementRun = {
      id: uuidv7(),
      organizationId: auth.organizationId,
      projectId: project.id,
      periodId: posting.periodId,
      periodEnd: posting.periodEnd,
      ruleVersion: posting.ruleVersion,
      rulesDigest: posting.rulesDigest,
      gross: formatted.revenue,
      costs: formatted.costs,
      distributable: formatted.distributable,
      currency: posting.settlement.currency,
      allocations: posting.allocations.map(runAllocation),
      tiers: formatted.tiers,
      digest: posting.digest,
      reversesRunId: posting.correctsRunId,
      postedBy: actorOf(auth),
    };
    try {
      await this.settlements.insertRun(manager, run, [...posting.reversals, ...posting.allocations]);
    } catch (error) {
      // The ledger lock makes postings of an organization wait for each other, so this is only the
      // database's own guarantee speaking; it still means the period was settled meanwhile.
      if (isSettledOnceViolation(error)) throw periodSettledMeanwhile(posting.periodId);
      throw error;
    }
    await this.audit.record(manager, auth, 'settlement-run.post', run.id, {
      projectId: project.id,
      periodId: run.periodId,
      ruleVersion: run.ruleVersion,
      digest: run.digest,
      correctsRunId: run.reversesRunId,
    });
    await this.events.record(manager, auth, {
      type: run.reversesRunId ? 'settlement_run.corrected' : 'settlement_run.posted',
      resource: `split-project:${project.id}`,
      data: {
        projectId: project.id,
        settlementRunId: run.id,
        periodId: run.periodId,
        currency: run.currency,
        distributableAmount: run.distributable,
        ruleVersion: run.ruleVersion,
        ...(run.reversesRunId ? { correctsRunId: run.reversesRunId } : {}),
      },
    });
    return (await this.settlements.findRun(auth.organizationId, run.id, manager))!;
  }

  /**
   * Everything the run would be: the period's state (settled once, corrections of the standing run
   * only), the rule version in force at the period's end and split-engine's settlement of the actuals.
   * Throws the refusal; nothing is written.
   */
  private async posting(
    manager: EntityManager,
    project: SplitProject,
    request: PostSettlementRunRequestDto,
    auth: Caller,
  ): Promise<Posting> {
    const periodEnd = new Date(request.periodEnd);
    if (Number.isNaN(periodEnd.getTime())) throw invalidPeriodEnd();
    if (periodEnd.getTime() > (await this.settlements.now(manager)).getTime()) throw periodEndInFuture();
    const version = await this.settlements.ruleVersionInForce(manager, project.id, periodEnd);
    if (!version) throw noRuleVersionInForce(project.id, periodEnd);
    // The rules were validated when their revision was stored; the actuals are checked by the same validator.
    const validation = validateScenario({
      ...version.rules,
      periods: [{ periodId: request.periodId, revenue: request.revenue, costs: request.costs }],
    });
    if (!validation.ok) throw invalidActuals(validation.errors);
    const settlement = settlePeriod(validation.scenario, request.periodId);
    const corrected = await this.correctedRun(manager, project.id, request, auth);
    const reversals =
      corrected === null
        ? []
        : (await this.settlements.allocationEntries(manager, corrected.id)).map((entry): NewLedgerEntry => ({
            id: uuidv7(),
            legalEntityId: entry.legalEntityId,
            participantId: entry.participantId,
            amount: formatAmount(-parseAmount(entry.amount, entry.currency), entry.currency),
            kind: 'reversal',
            reversesEntryId: entry.id,
          }));
    const participants = validation.scenario.participants;
    const totals = new Map(settlement.participants.map((p) => [p.participantId, p.total]));
    const allocations = participants.map((participant): NewLedgerEntry => ({
      id: uuidv7(),
      legalEntityId: participant.legalEntityId,
      participantId: participant.participantId,
      amount: formatAmount(totals.get(participant.participantId) ?? 0n, settlement.currency),
      kind: 'allocation',
      reversesEntryId: null,
    }));
    const digest = sha256Of({
      projectId: project.id,
      periodId: request.periodId,
      periodEnd: periodEnd.toISOString(),
      ruleVersion: version.version,
      rulesDigest: version.rulesDigest,
      settlement: formatSettlement(settlement),
      correctsRunId: corrected?.id ?? null,
      reversals: reversals.map(({ reversesEntryId, amount }) => ({ reversesEntryId, amount })),
      allocations: allocations.map(runAllocation),
    });
    return {
      periodId: request.periodId,
      periodEnd,
      ruleVersion: version.version,
      rulesDigest: version.rulesDigest,
      participants,
      settlement,
      correctsRunId: corrected?.id ?? null,
      reversals,
      allocations,
      digest,
    };
  }

  /** A period is settled once: a later run must correct the period's standing run, and only that one. */
  private async correctedRun(
    manager: EntityManager,
    projectId: string,
    request: PostSettlementRunRequestDto,
    auth: Caller,
  ): Promise<SettlementRun | null> {
    const standing = await this.settlements.standingRun(manager, projectId, request.periodId);
    if (request.correctsRunId === undefined) {
      if (standing) throw periodAlreadySettled(request.periodId, standing.id);
      return null;
    }
    const target = await this.settlements.findRun(auth.organizationId, request.correctsRunId, manager);
    if (!target || target.projectId !== projectId) throw correctedRunNotFound(request.correctsRunId, projectId);
    if (target.periodId !== request.periodId) throw correctionOfAnotherPeriod(target.id, target.periodId, request.periodId);
    if (target.correctedByRunId !== null) throw runAlreadyCorrected(target.id, target.correctedByRunId);
    return target;
  }
}

/** What the caller is asked to confirm: every amount the run would post, and the entries it would reverse. */
function challengeOf(project: SplitProject, posting: Posting): Omit<SettlementChallengeDto, 'expiresAt'> {
  const formatted = formatSettlement(posting.settlement);
  const names = new Map(posting.participants.map((p) => [p.participantId, p.name]));
  const allocations = posting.allocations.map((entry) => ({
    participantId: entry.participantId,
    legalEntityId: entry.legalEntityId,
    name: names.get(entry.participantId)!,
    amount: entry.amount,
  }));
  const facts = {
    periodId: posting.periodId,
    periodEnd: posting.periodEnd.toISOString(),
    currency: formatted.currency,
    gross: formatted.revenue,
    costs: formatted.costs,
    distributable: formatted.distributable,
    ruleVersion: posting.ruleVersion,
    rulesDigest: posting.rulesDigest,
    correctsRunId: posting.correctsRunId,
  };
  return {
    projectId: project.id,
    ...facts,
    allocations,
    reversals: posting.reversals.map((entry) => ({
      entryId: entry.reversesEntryId!,
      participantId: entry.participantId,
      legalEntityId: entry.legalEntityId,
      amount: entry.amount,
    })),
    summary: postingSummary({ ...facts, projectName: project.name, allocations, reversedEntries: posting.reversals.length }),
  };
}

function bindingOf(request: PostSettlementRunRequestDto, posting: Posting): PostingBinding {
  const currency = posting.settlement.currency;
  return {
    periodId: posting.periodId,
    periodEnd: posting.periodEnd.toISOString(),
    revenue: formatAmount(parseAmount(request.revenue, currency), currency),
    costs: formatAmount(parseAmount(request.costs, currency), currency),
    correctsRunId: posting.correctsRunId,
    digest: posting.digest,
  };
}

/** The same request: same period, end, actuals (as amounts, so "500" and "500.00" agree) and corrected run. */
function sameRequest(bound: PostingBinding, now: PostingBinding): boolean {
  return (
    bound.periodId === now.periodId &&
    bound.periodEnd === now.periodEnd &&
    bound.revenue === now.revenue &&
    bound.costs === now.costs &&
    bound.correctsRunId === now.correctsRunId
  );
}

/** A participant's share as the run records it (and as its digest covers it). */
function runAllocation({ participantId, legalEntityId, amount }: NewLedgerEntry): RunAllocation {
  return { participantId, legalEntityId, amount };
}

function isSettledOnceViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: unknown; constraint?: unknown } } | null)?.driverError;
  return (
    driverError?.code === '23505' &&
    (driverError.constraint === 'settlement_run_period_once' || driverError.constraint === 'settlement_run_corrected_once')
  );
}

function sha256Of(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex')}`;
}
