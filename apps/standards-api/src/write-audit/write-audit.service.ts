import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { currentRequestId, uuidv7 } from '@stdreg/server-kit';
import type { Caller } from '../callers/caller';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { WriteAuditRepository } from './write-audit.repository';

/**
 * The append-only record of every protected write: who (for an agent, also the person accountable for it),
 * what, when; written in the write's own transaction, which also marks a keyed request's claim done.
 */
@Injectable()
export class WriteAudit {
  constructor(
    private readonly entries: WriteAuditRepository,
    private readonly idempotency: IdempotencyService,
  ) {}

  async record(manager: EntityManager, auth: Caller, action: string, target: string, detail: Record<string, unknown>): Promise<void> {
    await this.entries.append(manager, {
      id: uuidv7(),
      organizationId: auth.organizationId,
      subjectKind: auth.subject.kind,
      subjectId: auth.subject.id,
      supervisorId: auth.subject.kind === 'agent' ? (auth.subject.supervisorId ?? null) : null,
      action,
      target,
      detail,
      requestId: currentRequestId() ?? null,
    });
    await this.idempotency.markPerformed(manager);
  }
}
