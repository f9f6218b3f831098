import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { currentRequestId, uuidv7, type DomainError } from '@stdreg/server-kit';
import type { Caller } from '../callers/caller';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { WriteAuditRepository, type WriteAuditEntry } from './write-audit.repository';

/**
 * The append-only record of every protected write: who (for an agent, also the person accountable for it),
 * what, when; written in the write's own transaction, which also marks a keyed request's claim done. A formal
 * write refused here after identity allowed it is recorded too (`denied`), on its own; so is a discard of another's
 * draft by an agent or a key.
 */
@Injectable()
export class WriteAudit {
  constructor(
    private readonly entries: WriteAuditRepository,
    private readonly idempotency: IdempotencyService,
    private readonly dataSource: DataSource,
  ) {}

  async record(manager: EntityManager, auth: Caller, action: string, target: string, detail: Record<string, unknown>): Promise<void> {
    await this.entries.append(manager, entryOf(auth, action, target, detail, 'success'));
    await this.idempotency.markPerformed(manager);
  }

  /**
   * Records a write refused here although identity allowed it (`domainCode`), then answers the refusal to
   * throw. Its own statement: the write never began, and a keyed request's claim stays open for a retry.
   */
  async refused(auth: Caller, action: string, target: string, refusal: DomainError): Promise<DomainError> {
    await this.entries.append(
      this.dataSource.manager,
      entryOf(auth, action, target, { domainCode: refusal.domainCode ?? refusal.code }, 'denied'),
    );
    return refusal;
  }
}

function entryOf(
  auth: Caller,
  action: string,
  target: string,
  detail: Record<string, unknown>,
  outcome: WriteAuditEntry['outcome'],
): WriteAuditEntry {
  return {
    id: uuidv7(),
    organizationId: auth.organizationId,
    subjectKind: auth.subject.kind,
    subjectId: auth.subject.id,
    supervisorId: auth.subject.kind === 'agent' ? (auth.subject.supervisorId ?? null) : null,
    action,
    target,
    detail,
    requestId: currentRequestId() ?? null,
    outcome,
  };
}
