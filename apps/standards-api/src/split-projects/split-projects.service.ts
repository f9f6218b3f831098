import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type BranchScenarioRequestDto,
  type CreateSplitProjectRequestDto,
  type CreatedSplitProjectDto,
  type DiscardedSplitProjectDto,
  type OperatingScenarioDto,
  type SplitProjectDto,
} from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import { applyMergePatch, canonicalJson, rulesDigest, validateScenario, type ScenarioContent } from '@stdreg/split-engine';
import { actorOf, type Caller } from '../callers/caller';
import { evaluatePreconditions, type Preconditions } from '../conditional-requests/preconditions';
import { RegistryService } from '../registry/registry.service';
import { WriteAudit } from '../write-audit/write-audit.service';
import { PartnerEventsService } from '../events/events.service';
import { StandardsApiConfig } from '../config/standards-api.config';
import {
  currencyMismatch,
  discardNotYours,
  draftLimitReached,
  invalidScenario,
  notADraft,
  patchNotObject,
  projectNotFound,
  revisionLimitReached,
  revisionNotFound,
  scenarioLimitReached,
  scenarioNotFound,
  scenarioNotChanged,
  staleScenario,
  templateUnknown,
} from './split-projects.errors';
import {
  SplitProjectsRepository,
  type NewScenarioRevision,
  type Discard,
  type OperatingScenario,
  type ScenarioRevision,
  type SplitProject,
} from './split-projects.repository';

export type { OperatingScenario, ScenarioRevision, SplitProject } from './split-projects.repository';

/** A revision number as a cursor's key: what a forged cursor cannot smuggle into a query. */
const REVISION_KEY = /^[1-9][0-9]{0,8}$/;

/** Split projects and their append-only operating scenarios: drafts, never authoritative. */
@Injectable()
export class SplitProjectsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: SplitProjectsRepository,
    private readonly registry: RegistryService,
    private readonly audit: WriteAudit,
    private readonly events: PartnerEventsService,
    @Inject(StandardsApiConfig) private readonly config: StandardsApiConfig,
  ) {}

  /** The project and its first scenario (revision 1) in one transaction: both or neither. */
  async create(request: CreateSplitProjectRequestDto, auth: Caller): Promise<CreatedSplitProjectDto> {
    if (!this.registry.hasSplitTemplate(request.templateVersion)) {
      throw templateUnknown(request.templateVersion);
    }
    const scenario = this.validContent(request.scenario.content, 'scenario.content', request.currency);
    const projectId = uuidv7();
    const scenarioId = uuidv7();
    return this.dataSource.transaction(async (manager) => {
      const limit = this.config.SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION;
      if ((await this.projects.lockAndCountDrafts(manager, auth.organizationId, limit)) >= limit) throw draftLimitReached(limit);
      await this.projects.insertProject(manager, {
        id: projectId,
        organizationId: auth.organizationId,
        name: request.name.trim(),
        currency: request.currency,
        templateVersion: request.templateVersion,
        createdBy: actorOf(auth),
      });
      await this.projects.insertScenario(manager, {
        id: scenarioId,
        projectId,
        name: request.scenario.name.trim(),
        branchedFrom: null,
        createdBy: actorOf(auth),
      });
      await this.projects.insertRevision(manager, revisionOf(scenarioId, 1, scenario, auth));
      await this.audit.record(manager, auth, 'split-project.create', projectId, { scenarioId });
      await this.events.record(manager, auth, {
        type: 'split_project.created',
        resource: `split-project:${projectId}`,
        data: { projectId, name: request.name.trim(), currency: request.currency, templateVersion: request.templateVersion, scenarioId },
      });
      const project = (await this.projects.findProject(auth.organizationId, projectId, manager))!;
      return { project: toProjectDto(project), scenario: await this.scenarioDto(auth.organizationId, scenarioId, undefined, manager) };
    });
  }

  /**
   * Discards a draft: marks it (nothing is deleted), under the row lock activation takes, so that of a discard and an
   * activation of one project only the first happens. A person allowed to draft may discard any draft of the
   * organization; an agent or a key only one it created itself (the same subject, and for an agent the same person
   * accountable for it). A project already discarded answers that discard again, and writes nothing.
   */
  async discard(id: string, auth: Caller): Promise<DiscardedSplitProjectDto> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const project = await this.projects.lockToDiscard(manager, auth.organizationId, id);
      if (!project) throw projectNotFound(id);
      if (auth.subject.kind !== 'human' && project.createdBy !== actorOf(auth)) return { refused: true as const };
      if (project.discardedAt !== null && project.discardedBy !== null)
        return {
          refused: false as const,
          dto: toDiscardedDto(project, { discardedAt: project.discardedAt, discardedBy: project.discardedBy }),
        };
      if (await this.projects.hasRuleVersion(manager, id)) throw notADraft(id);
      const discard = await this.projects.markDiscarded(manager, id, actorOf(auth));
      await this.audit.record(manager, auth, 'split-project.discard', id, {});
      await this.events.record(manager, auth, {
        type: 'split_project.discarded',
        resource: `split-project:${id}`,
        data: { projectId: id, discardedAt: discard.discardedAt.toISOString() },
      });
      return { refused: false as const, dto: toDiscardedDto(project, discard) };
    });
    // Recorded on its own, after the lock is let go: an agent reaching for another's draft is for its supervisor to see.
    if (outcome.refused) throw await this.audit.refused(auth, 'split-project.discard', id, discardNotYours(id));
    return outcome.dto;
  }

  async get(id: string, auth: Caller): Promise<SplitProjectDto> {
    return toProjectDto(await this.requireProject(id, auth));
  }

  list(auth: Caller, query: { limit?: number; cursor?: string }): Promise<{ items: SplitProjectDto[]; nextCursor: string | null }> {
    return keysetPage(
      'split-projects',
      query,
      (afterId, limit) => this.projects.listProjects(auth.organizationId, afterId, limit),
      toProjectDto,
    );
  }

  async listScenarios(projectId: string, auth: Caller, query: { limit?: number; cursor?: string }) {
    await this.requireProject(projectId, auth);
    const page = await keysetPage(
      'scenarios',
      query,
      (afterId, limit) => this.projects.listScenarios(projectId, afterId, limit),
      (scenario) => scenario,
    );
    const revisions = new Map(
      (await this.projects.findCurrentRevisions(page.items.map((scenario) => scenario.id))).map((r) => [r.scenarioId, r]),
    );
    return { items: page.items.map((scenario) => toScenarioDto(scenario, revisions.get(scenario.id)!)), nextCursor: page.nextCursor };
  }

  /** A new scenario that starts from a scenario of the same project at a given (or its current) revision. */
  async branch(projectId: string, request: BranchScenarioRequestDto, auth: Caller): Promise<OperatingScenarioDto> {
    await this.requireProject(projectId, auth);
    const origin = await this.projects.findScenario(auth.organizationId, request.fromScenarioId);
    if (!origin || origin.projectId !== projectId) throw scenarioNotFound(request.fromScenarioId);
    const revision = request.fromRevision ?? origin.currentRevision;
    const source = await this.projects.findRevision(origin.id, revision);
    if (!source) throw revisionNotFound(origin.id, revision);
    const id = uuidv7();
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.projects.holdToDraft(manager, auth.organizationId, projectId))) throw projectNotFound(projectId);
      const limit = this.config.SPLIT_PROJECT_MAX_SCENARIOS;
      if ((await this.projects.lockAndCountScenarios(manager, projectId, limit)) >= limit) throw scenarioLimitReached(projectId, limit);
      await this.projects.insertScenario(manager, {
        id,
        projectId,
        name: request.name.trim(),
        branchedFrom: { scenarioId: origin.id, revision },
        createdBy: actorOf(auth),
      });
      await this.projects.insertRevision(manager, revisionOf(id, 1, source.content, auth));
      await this.audit.record(manager, auth, 'operating-scenario.branch', id, { projectId, from: origin.id, revision });
      await this.events.record(manager, auth, {
        type: 'scenario.branched',
        resource: `split-project:${projectId}`,
        data: { projectId, scenarioId: id, fromScenarioId: origin.id, fromRevision: revision },
      });
      return this.scenarioDto(auth.organizationId, id, undefined, manager);
    });
  }

  async getScenario(id: string, revision: number | undefined, auth: Caller): Promise<OperatingScenarioDto> {
    return this.scenarioDto(auth.organizationId, id, revision);
  }

  /** The revision history, oldest first, a page at a time (the cursor names the last revision served). */
  async listRevisions(id: string, auth: Caller, query: { limit?: number; cursor?: string }) {
    if (!(await this.projects.findScenario(auth.organizationId, id))) throw scenarioNotFound(id);
    return keysetPage(
      'revisions',
      query,
      async (afterRevision, limit) =>
        (await this.projects.listRevisions(id, afterRevision === undefined ? 0 : Number(afterRevision), limit)).map((r) => ({
          ...r,
          id: String(r.revision),
        })),
      (r) => ({ revision: r.revision, rulesDigest: r.rulesDigest, createdBy: r.createdBy, createdAt: r.createdAt.toISOString() }),
      REVISION_KEY,
    );
  }

  /**
   * Applies a JSON Merge Patch to the current revision's content and stores the valid result as the
   * next revision, under the scenario's row lock; a stale If-Match, or an If-None-Match naming the current
   * revision, is refused and nothing is stored.
   * A result whose canonical form is the current revision's appends nothing: no revision, audit entry
   * or event, and the current revision is the answer.
   */
  async revise(id: string, patch: unknown, preconditions: Preconditions, auth: Caller): Promise<OperatingScenarioDto> {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw patchNotObject();
    }
    return this.dataSource.transaction(async (manager) => {
      const found = await this.projects.findScenario(auth.organizationId, id, manager);
      // Held before the scenario is locked: a discard waits for this revision, or this revision finds the discard.
      if (!found || !(await this.projects.holdToDraft(manager, auth.organizationId, found.projectId))) throw scenarioNotFound(id);
      const scenario = await this.projects.lockScenario(manager, auth.organizationId, id);
      if (!scenario) throw scenarioNotFound(id);
      const etag = scenarioEtag(scenario.id, scenario.currentRevision);
      const outcome = evaluatePreconditions('PATCH', preconditions, etag);
      if (outcome === 'if-match-failed') throw staleScenario(etag);
      if (outcome === 'if-none-match-failed') throw scenarioNotChanged(etag);
      const current = (await this.projects.findRevision(id, scenario.currentRevision, manager))!;
      const project = (await this.projects.findProject(auth.organizationId, scenario.projectId, manager))!;
      const next = this.validContent(applyMergePatch(current.content, patch), 'content', project.currency);
      if (canonicalJson(next) === canonicalJson(current.content)) return toScenarioDto(scenario, current);
      if (scenario.currentRevision >= this.config.SCENARIO_MAX_REVISIONS)
        throw revisionLimitReached(id, this.config.SCENARIO_MAX_REVISIONS);
      const revision = scenario.currentRevision + 1;
      await this.projects.insertRevision(manager, revisionOf(id, revision, next, auth));
      await this.audit.record(manager, auth, 'operating-scenario.revise', id, { revision });
      await this.events.record(manager, auth, {
        type: 'scenario.revised',
        resource: `split-project:${scenario.projectId}`,
        data: { projectId: scenario.projectId, scenarioId: id, revision },
      });
      return this.scenarioDto(auth.organizationId, id, undefined, manager);
    });
  }

  async requireProject(id: string, auth: Caller): Promise<SplitProject> {
    const project = await this.projects.findProject(auth.organizationId, id);
    if (!project) throw projectNotFound(id);
    return project;
  }

  /** A scenario's content at a revision (the current one by default), from this organization only. */
  async scenarioAt(
    organizationId: string,
    id: string,
    revision?: number,
    manager?: EntityManager,
  ): Promise<{ scenario: OperatingScenario; revision: ScenarioRevision }> {
    const scenario = await this.projects.findScenario(organizationId, id, manager);
    if (!scenario) throw scenarioNotFound(id);
    const wanted = revision ?? scenario.currentRevision;
    const found = await this.projects.findRevision(id, wanted, manager);
    if (!found) throw revisionNotFound(id, wanted);
    return { scenario, revision: found };
  }

  private async scenarioDto(organizationId: string, id: string, revision?: number, manager?: EntityManager): Promise<OperatingScenarioDto> {
    const found = await this.scenarioAt(organizationId, id, revision, manager);
    return toScenarioDto(found.scenario, found.revision);
  }

  private validContent(content: unknown, field: string, currency: string): ScenarioContent {
    const validation = validateScenario(content);
    if (!validation.ok) throw invalidScenario(validation.errors, field);
    if (validation.scenario.currency !== currency) {
      throw currencyMismatch(validation.scenario.currency, currency, field);
    }
    return validation.scenario;
  }
}

export function scenarioEtag(scenarioId: string, revision: number): string {
  return `"${scenarioId}.${revision}"`;
}

function revisionOf(scenarioId: string, revision: number, content: ScenarioContent, auth: Caller): NewScenarioRevision {
  return { scenarioId, revision, content, rulesDigest: rulesDigest(content), createdBy: actorOf(auth) };
}

function toProjectDto(project: SplitProject): SplitProjectDto {
  return {
    id: project.id,
    organizationId: project.organizationId,
    name: project.name,
    currency: project.currency,
    templateVersion: project.templateVersion,
    createdBy: project.createdBy,
    createdAt: project.createdAt.toISOString(),
  };
}

function toDiscardedDto(project: SplitProject, discard: Discard): DiscardedSplitProjectDto {
  return { ...toProjectDto(project), discardedAt: discard.discardedAt.toISOString(), discardedBy: discard.discardedBy };
}

function toScenarioDto(scenario: OperatingScenario, revision: ScenarioRevision): OperatingScenarioDto {
  return {
    id: scenario.id,
    projectId: scenario.projectId,
    name: scenario.name,
    revision: revision.revision,
    currentRevision: scenario.currentRevision,
    content: { ...revision.content },
    rulesDigest: revision.rulesDigest,
    branchedFrom: scenario.branchedFrom,
    createdAt: scenario.createdAt.toISOString(),
    revisedAt: revision.createdAt.toISOString(),
  };
}
