import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditEntryDto, AuditOutcome, AuditQueryDto } from '@stdreg/contracts';
import { currentRequestId, keysetPage, uuidv7 } from '@stdreg/server-kit';
import type { Actor } from './actor';
import { AuditRepository, type AuditEntry, type AuditRecord } from './audit.repository';

export interface AuditEvent {
  action: string;
  target?: string | null;
  /** The organization the entry concerns (its keys, apps, users, webhooks, roles, a decision on its resources); an organization's key reads these. */
  organizationId?: string | null;
  outcome?: AuditOutcome;
  detail?: Record<string, unknown>;
}

/** Who did what to what, when, and how it ended; written with the change it records when there is one. */
@Injectable()
export class AuditService {
  constructor(private readonly repository: AuditRepository) {}

  async record(actor: Actor, event: AuditEvent, manager?: EntityManager): Promise<void> {
    await this.repository.insert(auditRecord(actor, event), manager);
  }

  /** Records the event unless one of the same action and target was recorded in the last `windowSeconds` (a bounded trail of a frequent act). */
  recordOncePer(windowSeconds: number, actor: Actor, event: AuditEvent & { target: string }): Promise<boolean> {
    return this.repository.insertUnlessRecent(auditRecord(actor, event), windowSeconds);
  }

  /** Records the event unless one of the same action and target was ever recorded (the first sighting of something identity learns of more than once). */
  recordFirst(actor: Actor, event: AuditEvent & { target: string }): Promise<boolean> {
    return this.repository.insertUnlessRecorded(auditRecord(actor, event));
  }

  list(query: AuditQueryDto): Promise<{ items: AuditEntryDto[]; nextCursor: string | null }> {
    const { cursor, limit, ...filter } = query;
    return keysetPage(
      'audit',
      { cursor, limit },
      (afterId, pageLimit) => this.repository.list({ ...filter, afterId, limit: pageLimit }),
      toAuditEntryDto,
    );
  }
}

function auditRecord(actor: Actor, event: AuditEvent): AuditRecord {
  return {
    id: uuidv7(),
    actorKind: actor.kind,
    actorId: actor.id,
    action: event.action,
    target: event.target ?? null,
    organizationId: event.organizationId ?? null,
    outcome: event.outcome ?? 'success',
    detail: actor.supervisor === undefined ? (event.detail ?? {}) : { ...event.detail, supervisor: actor.supervisor },
    requestId: currentRequestId() ?? null,
  };
}

function toAuditEntryDto(entry: AuditEntry): AuditEntryDto {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actorKind: entry.actorKind,
    actorId: entry.actorId,
    action: entry.action,
    target: entry.target,
    organizationId: entry.organizationId,
    outcome: entry.outcome,
    detail: entry.detail,
    requestId: entry.requestId,
  };
}
