import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type ActivateSplitProjectRequestDto,
  type ActivationChallengeDto,
  type CreateRuleVersionRequestDto,
  DEFAULT_PAGE_LIMIT,
  type RuleVersionDto,
} from '@stdreg/contracts';
import { decodeCursor, encodeCursor } from '@stdreg/server-kit';
import { actorOf, type Caller } from '../callers/caller';
import { humanRequired } from '../callers/callers.errors';
import { ConfirmationsService, refused, written } from '../confirmations/confirmations.service';
import { WriteAudit } from '../write-audit/write-audit.service';
import { PartnerEventsService } from '../events/events.service';
import {
  SplitProjectsService,
  type OperatingScenario,
  type ScenarioRevision,
  type SplitProject,
} from '../split-projects/split-projects.service';
import { projectNotFound } from '../split-projects/split-projects.errors';
import { activationSummary } from './activation-summary';
import {
  alreadyActivated,
  contentChanged,
  effectiveFromInPast,
  effectiveFromNotAfterLatest,
  notActivated,
  notCurrentRevision,
  ruleVersionNotFound,
  scenarioOfAnotherProject,
  effectiveFromInvalid,
  invalidCursor,
} from './rule-versions.errors';
import { RuleVersionsRepository, type RuleVersion } from './rule-versions.repository';

/** What an activation token confirms. */
interface ActivationBinding {
  scenarioId: string;
  revision: number;
  rulesDigest: string;
  effectiveFrom: string;
}

/** Rule versions: the authoritative, immutable rules of an activated split project, numbered 1, 2, 3, ... */
@Injectable()
export class RuleVersionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly versions: RuleVersionsRepository,
    private readonly projects: SplitProjectsService,
    private readonly confirmations: ConfirmationsService,
    private readonly audit: WriteAudit,
    private readonly events: PartnerEventsService,
  ) {}

  /**
   * Without a token: answers 428 with a challenge and a single-use token bound to the caller and
   * that exact content. With the token: creates Rule Version 1, once per project.
   */
  async activate(projectId: string, request: ActivateSplitProjectRequestDto, auth: Caller): Promise<RuleVersionDto> {
    if (auth.subject.kind !== 'human')
      throw await this.audit.refused(auth, 'split-project.activate', projectId, humanRequired('activate a split project'));
    const project = await this.projects.requireProject(projectId, auth);
    const created = await this.confirmations.confirmedWrite<ActivationBinding, void, RuleVersion>({
      scope: { action: 'split-project:activate', projectId: project.id, auth },
      token: request.confirmationToken,
      what: 'Activation',
      confirms: 'scenario, revision or effective time',
      challenge: () => this.challenge(project, request, auth),
      prepare: async (manager) => {
        if (!(await this.versions.lockProject(manager, auth.organizationId, project.id))) throw projectNotFound(project.id);
        if (await this.versions.latest(project.id, manager)) throw alreadyActivated(project.id);
      },
      matches: (bound) =>
        request.scenarioId === bound.scenarioId &&
        (request.revision === undefined || request.revision === bound.revision) &&
        (request.effectiveFrom === undefined || instant(request.effectiveFrom).getTime() === Date.parse(bound.effectiveFrom)),
      write: async (manager, bound) => {
        const now = await this.projects.scenarioAt(auth.organizationId, bound.scenarioId, undefined, manager);
        if (now.revision.revision !== bound.revision || now.revision.rulesDigest !== bound.rulesDigest) return refused(contentChanged());
        const effectiveFrom = new Date(bound.effectiveFrom);
        return written(await this.insertVersion(manager, auth, project.id, 1, now.revision, effectiveFrom, 'split-project.activate'));
      },
    });
    return toRuleVersionDto(created);
  }

  /** Version n+1, effective strictly in the future and after version n; numbered under the project's row lock. */
  async create(projectId: string, request: CreateRuleVersionRequestDto, auth: Caller): Promise<RuleVersionDto> {
    if (auth.subject.kind !== 'human')
      throw await this.audit.refused(auth, 'rule-version.create', projectId, humanRequired('create a rule version'));
    await this.projects.requireProject(projectId, auth);
    const effectiveFrom = instant(request.effectiveFrom);
    const source = await this.scenarioOfProject(projectId, request.scenarioId, request.revision, auth);
    const created = await this.dataSource.transaction(async (manager) => {
      if (!(await this.versions.lockProject(manager, auth.organizationId, projectId))) throw projectNotFound(projectId);
      // After the lock and by the database's clock: a posting holds the lock while it reads the version in force,
      // so a version that starts later than now cannot reach back into a period settled meanwhile.
      if (effectiveFrom.getTime() <= (await this.versions.now(manager)).getTime()) throw effectiveFromInPast();
      const latest = await this.versions.latest(projectId, manager);
      if (!latest) throw notActivated(projectId);
      if (effectiveFrom.getTime() <= latest.effectiveFrom.getTime())
        throw effectiveFromNotAfterLatest(latest.version, latest.effectiveFrom);
      return this.insertVersion(manager, auth, projectId, latest.version + 1, source.revision, effectiveFrom, 'rule-version.create');
    });
    return toRuleVersionDto(created);
  }

  async list(
    projectId: string,
    auth: Caller,
    query: { limit?: number; cursor?: string },
  ): Promise<{ items: RuleVersionDto[]; nextCursor: string | null }> {
    await this.projects.requireProject(projectId, auth);
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const after = query.cursor === undefined ? 0 : versionOfCursor(query.cursor);
    const found = await this.versions.list(projectId, after, limit + 1);
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toRuleVersionDto),
      nextCursor: found.length > limit && last ? encodeCursor('rule-versions', String(last.version)) : null,
    };
  }

  async get(projectId: string, version: number, auth: Caller): Promise<RuleVersionDto> {
    await this.projects.requireProject(projectId, auth);
    const found = await this.versions.find(projectId, version);
    if (!found) throw ruleVersionNotFound(projectId, version);
    return toRuleVersionDto(found);
  }

  /** What the caller is asked to confirm: the current revision of a scenario of the project, from a time not past. */
  private async challenge(
    project: SplitProject,
    request: ActivateSplitProjectRequestDto,
    auth: Caller,
  ): Promise<{ shown: Omit<ActivationChallengeDto, 'expiresAt'>; binding: ActivationBinding }> {
    if (await this.versions.latest(project.id)) throw alreadyActivated(project.id);
    const { scenario, revision } = await this.scenarioOfProject(project.id, request.scenarioId, request.revision, auth);
    if (revision.revision !== scenario.currentRevision) throw notCurrentRevision(scenario.id, revision.revision, scenario.currentRevision);
    let effectiveFrom = new Date();
    if (request.effectiveFrom !== undefined) {
      effectiveFrom = instant(request.effectiveFrom);
      if (effectiveFrom.getTime() < Date.now()) throw effectiveFromInPast();
    }
    const binding: ActivationBinding = {
      scenarioId: scenario.id,
      revision: revision.revision,
      rulesDigest: revision.rulesDigest,
      effectiveFrom: effectiveFrom.toISOString(),
    };
    const shown = {
      projectId: project.id,
      ...binding,
      summary: activationSummary({
        projectName: project.name,
        scenarioName: scenario.name,
        revision: revision.revision,
        rulesDigest: revision.rulesDigest,
        effectiveFrom,
        content: revision.content,
      }),
    };
    return { shown, binding };
  }

  private async scenarioOfProject(
    projectId: string,
    scenarioId: string,
    revision: number | undefined,
    auth: Caller,
  ): Promise<{ scenario: OperatingScenario; revision: ScenarioRevision }> {
    const found = await this.projects.scenarioAt(auth.organizationId, scenarioId, revision);
    if (found.scenario.projectId !== projectId) throw scenarioOfAnotherProject(scenarioId, projectId);
    return found;
  }

  private async insertVersion(
    manager: EntityManager,
    auth: Caller,
    projectId: string,
    version: number,
    source: ScenarioRevision,
    effectiveFrom: Date,
    action: string,
  ): Promise<RuleVersion> {
    const created = await this.versions.insert(manager, {
      projectId,
      version,
      scenarioId: source.scenarioId,
      revision: source.revision,
      rulesDigest: source.rulesDigest,
      rules: source.content,
      effectiveFrom,
      createdBy: actorOf(auth),
    });
    await this.audit.record(manager, auth, action, projectId, {
      version,
      scenarioId: source.scenarioId,
      revision: source.revision,
      rulesDigest: source.rulesDigest,
      effectiveFrom: effectiveFrom.toISOString(),
    });
    await this.events.record(manager, auth, {
      type: version === 1 ? 'rule_version.activated' : 'rule_version.created',
      resource: `split-project:${projectId}`,
      data: {
        projectId,
        version,
        scenarioId: source.scenarioId,
        scenarioRevision: source.revision,
        effectiveFrom: effectiveFrom.toISOString(),
        rulesDigest: source.rulesDigest,
      },
    });
    return created;
  }
}

/** An RFC 3339 time the validator accepted; a date JavaScript cannot represent (e.g. a leap second) is still refused. */
function instant(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw effectiveFromInvalid();
  }
  return date;
}

function versionOfCursor(cursor: string): number {
  const key = decodeCursor('rule-versions', cursor);
  if (!/^[1-9][0-9]{0,8}$/.test(key)) {
    throw invalidCursor();
  }
  return Number(key);
}

function toRuleVersionDto(version: RuleVersion): RuleVersionDto {
  return {
    projectId: version.projectId,
    version: version.version,
    scenarioId: version.scenarioId,
    revision: version.revision,
    rulesDigest: version.rulesDigest,
    rules: { ...version.rules },
    effectiveFrom: version.effectiveFrom.toISOString(),
    createdBy: version.createdBy,
    createdAt: version.createdAt.toISOString(),
  };
}
