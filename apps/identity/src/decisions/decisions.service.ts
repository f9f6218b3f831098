import { Injectable } from '@nestjs/common';
import {
  actionDefinition,
  credentialDigest,
  isAction,
  type DecisionQuestionDto,
  type DecisionRequestDto,
  type DecisionResponseDto,
} from '@stdreg/contracts';
import type { Actor } from '../platform/audit-trail/actor';
import { AuditService } from '../platform/audit-trail/audit.service';
import { IdentityConfig } from '../platform/config/identity.config';
import { ForwardedCredentials } from '../access/callers/forwarded-credentials';
import { actorOf, actorOfSubject } from '../access/callers/caller';
import type { DecisionSubject } from '../access/callers/decision-subject';
import { decide, subjectDto, type DenialReason } from './decision-policy';
import { DecisionsRepository } from './decisions.repository';
import { RefusalTally } from './refusal-tally';

/** Answers allow or deny for a forwarded credential, an action and a resource; never throws a decision away. */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly credentials: ForwardedCredentials,
    private readonly audit: AuditService,
    private readonly refusals: RefusalTally,
    private readonly config: IdentityConfig,
    private readonly decisions: DecisionsRepository,
  ) {}

  /** The answer, with the question it answers echoed (see DecisionQuestionDto). */
  async decide(request: DecisionRequestDto, serviceName: string): Promise<DecisionResponseDto> {
    return { ...(await this.answer(request, serviceName)), question: questionOf(request) };
  }

  private async answer(request: DecisionRequestDto, serviceName: string): Promise<Omit<DecisionResponseDto, 'question'>> {
    const subject = await this.credentials.subjectOf(request.credential, request.audience);
    if (typeof subject === 'string') return this.deny(request, serviceName, subject, null);
    const scopes = request.scope?.split(' ');
    // A person's sign-in age is measured by the database's clock (auth_time is stamped by it too), never this replica's.
    const freshness =
      isFormal(request.action) && subject.kind === 'human'
        ? { maxAgeSeconds: this.config.FORMAL_WRITE_MAX_AGE_SECONDS, nowSeconds: Math.floor((await this.decisions.now()).getTime() / 1000) }
        : undefined;
    const outcome = decide(subject, request.action, { ...request.resource, scopes }, freshness);
    if (outcome.decision === 'deny') {
      const denied = await this.deny(request, serviceName, outcome.reason, subject);
      return outcome.reason === 'authentication_too_old' ? { ...denied, maxAge: outcome.maxAge } : denied;
    }
    if (isFormal(request.action)) await this.recordFormal(request, serviceName, actorOfSubject(subject), 'success', outcome.reason);
    return { decision: 'allow', reason: outcome.reason, subject: subjectDto(subject) };
  }

  private async deny(
    request: DecisionRequestDto,
    serviceName: string,
    reason: DenialReason,
    subject: DecisionSubject | null,
  ): Promise<Omit<DecisionResponseDto, 'question'>> {
    if (isFormal(request.action)) {
      if (subject) await this.recordFormal(request, serviceName, actorOfSubject(subject), 'denied', reason);
      else await this.recordRefusedCredential(request, serviceName, reason);
    }
    return { decision: 'deny', reason, subject: subject ? subjectDto(subject) : null };
  }

  /**
   * A refused key that identity issued is recorded under its own prefix, every time; credentials
   * nobody was issued are counted, a row a minute per service and action (RefusalTally).
   */
  private async recordRefusedCredential(request: DecisionRequestDto, serviceName: string, reason: DenialReason): Promise<void> {
    const known = await this.credentials.refusedKey(request.credential);
    if (known) {
      return this.recordFormal(request, serviceName, actorOf(known), 'denied', reason);
    }
    const tally = `${serviceName} ${request.action}`;
    const refused = this.refusals.count(tally);
    if (refused === null) return;
    try {
      await this.recordFormal(request, serviceName, { kind: 'service', id: serviceName }, 'denied', reason, {
        unknownCredentialsRefused: refused,
      });
    } catch (error) {
      this.refusals.unwritten(tally, refused);
      throw error;
    }
  }

  /** Every decision on a formal write, allowed or denied, is audited with the subject when it is known. */
  private async recordFormal(
    request: DecisionRequestDto,
    serviceName: string,
    actor: Actor,
    outcome: 'success' | 'denied',
    reason: string,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.audit.record(actor, {
      action: `decision:${request.action}`,
      target: request.resource.projectId ?? request.resource.organizationId ?? null,
      organizationId: request.resource.organizationId ?? null,
      outcome,
      detail: { reason, service: serviceName, resource: { ...request.resource }, ...extra },
    });
  }
}

function questionOf(request: DecisionRequestDto): DecisionQuestionDto {
  const { organizationId, projectId } = request.resource;
  return {
    action: request.action,
    resource: { ...(organizationId ? { organizationId } : {}), ...(projectId ? { projectId } : {}) },
    credentialDigest: credentialDigest(request.credential),
    nonce: request.nonce ?? null,
    ...(request.audience === undefined ? {} : { audience: request.audience }),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
  };
}

function isFormal(action: string): boolean {
  return isAction(action) && actionDefinition(action).formal;
}
