import { Injectable } from '@nestjs/common';
import { actionDefinition, isAction, type DecisionRequestDto, type DecisionResponseDto } from '@stdreg/contracts';
import { AuditService } from '../audit/audit.service';
import { KeysService } from '../keys/keys.service';
import { AccessTokenVerifier } from '../oidc/access-token-verifier';
import { decide, subjectDto, type DecisionSubject, type DenialReason } from './decision-policy';

/** Answers allow or deny for a forwarded credential, an action and a resource; never throws a decision away. */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly keys: KeysService,
    private readonly audit: AuditService,
    private readonly accessTokens: AccessTokenVerifier,
  ) {}

  async decide(request: DecisionRequestDto, serviceName: string): Promise<DecisionResponseDto> {
    const subject = await this.resolve(request.credential);
    if (typeof subject === 'string') return this.deny(request, serviceName, subject, null);
    const outcome = decide(subject, request.action, request.resource);
    if (outcome.decision === 'deny') return this.deny(request, serviceName, outcome.reason, subject);
    if (isFormal(request.action)) await this.recordFormal(request, serviceName, subject, 'success', outcome.reason);
    return { decision: 'allow', reason: outcome.reason, subject: subjectDto(subject) };
  }

  private async resolve(credential: DecisionRequestDto['credential']): Promise<DecisionSubject | DenialReason> {
    if (credential.kind === 'access_token') return this.accessTokens.subjectOf(credential.value);
    const caller = await this.keys.authenticateLeased(credential.value);
    if (!caller) return 'invalid_credential';
    return caller.keyClass === 'platform'
      ? { kind: 'platform_key', keyId: caller.keyId, keyPrefix: caller.keyPrefix }
      : { kind: 'app_key', keyId: caller.keyId, keyPrefix: caller.keyPrefix, organizationId: caller.organizationId };
  }

  private async deny(
    request: DecisionRequestDto,
    serviceName: string,
    reason: DenialReason,
    subject: DecisionSubject | null,
  ): Promise<DecisionResponseDto> {
    if (isFormal(request.action)) await this.recordFormal(request, serviceName, subject, 'denied', reason);
    return { decision: 'deny', reason, subject: subject ? subjectDto(subject) : null };
  }

  /** Every decision on a formal write, allowed or denied, is audited with the subject when it is known. */
  private async recordFormal(
    request: DecisionRequestDto,
    serviceName: string,
    subject: DecisionSubject | null,
    outcome: 'success' | 'denied',
    reason: string,
  ): Promise<void> {
    await this.audit.record(subject ? actorOfSubject(subject) : { kind: 'service', id: serviceName }, {
      action: `decision:${request.action}`,
      target: request.resource.projectId ?? request.resource.organizationId ?? null,
      outcome,
      detail: { reason, service: serviceName, resource: { ...request.resource } },
    });
  }
}

function isFormal(action: string): boolean {
  return isAction(action) && actionDefinition(action).formal;
}

function actorOfSubject(subject: DecisionSubject): { kind: 'human' | 'app_key' | 'platform_key'; id: string } {
  return subject.kind === 'human' ? { kind: 'human', id: subject.uid } : { kind: subject.kind, id: subject.keyPrefix };
}
