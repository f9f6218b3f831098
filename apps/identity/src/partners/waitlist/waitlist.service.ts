import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type ApproveWaitlistRequestDto,
  type CreateWaitlistRequestDto,
  KeyClass,
  type WaitlistApprovalDto,
  type WaitlistListQueryDto,
  type WaitlistRequestDto,
} from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { KeysService } from '../../access/keys/keys.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { alreadyDecided, requestNotFound } from './waitlist.errors';
import { WaitlistRepository, type WaitlistRequest } from './waitlist.repository';

/** Keys are not self-served: anyone may ask for one, a platform key approves (issuing an App key) or rejects. */
@Injectable()
export class WaitlistService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly requests: WaitlistRepository,
    private readonly organizations: OrganizationsService,
    private readonly keys: KeysService,
    private readonly audit: AuditService,
  ) {}

  async submit(request: CreateWaitlistRequestDto, clientIp: string): Promise<WaitlistRequestDto> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.requests.insert(manager, {
        id: uuidv7(),
        organizationName: request.organizationName.trim(),
        contactName: request.contactName.trim(),
        contactEmail: request.contactEmail,
        useCase: request.useCase.trim(),
      });
      await this.audit.record(
        { kind: 'anonymous', id: clientIp },
        { action: 'waitlist.request', target: row.id, detail: { organizationName: row.organizationName } },
        manager,
      );
      return toWaitlistRequestDto(row);
    });
  }

  list(query: WaitlistListQueryDto): Promise<{ items: WaitlistRequestDto[]; nextCursor: string | null }> {
    const status = query.status ?? 'pending';
    // The status is part of the list's name, so a cursor from one status's list is refused by another's.
    return keysetPage(`waitlist:${status}`, query, (afterId, limit) => this.requests.list(status, afterId, limit), toWaitlistRequestDto);
  }

  async get(id: string): Promise<WaitlistRequestDto> {
    const row = await this.requests.find(id);
    if (!row) throw requestNotFound(id);
    return toWaitlistRequestDto(row);
  }

  /** Creates (or reuses) the organization, issues its App key and marks the request approved, all or nothing. */
  async approve(id: string, decision: ApproveWaitlistRequestDto, actor: Actor): Promise<WaitlistApprovalDto> {
    return this.dataSource.transaction(async (manager) => {
      const pending = await this.lockPending(manager, id);
      const organizationId = decision.organizationId ?? (await this.organizations.createIn(manager, pending.organizationName, actor)).id;
      const issued = await this.keys.issue(
        manager,
        { name: `${pending.organizationName} (waitlist)`, keyClass: KeyClass.App, organizationId, maxApps: decision.maxApps },
        actor,
      );
      const row = await this.requests.decide(manager, id, { status: 'approved', reason: null, issuedKeyId: issued.key.id });
      await this.audit.record(
        actor,
        { action: 'waitlist.approve', target: id, organizationId, detail: { organizationId, keyId: issued.key.id } },
        manager,
      );
      return { request: toWaitlistRequestDto(row), issued };
    });
  }

  async reject(id: string, reason: string | undefined, actor: Actor): Promise<WaitlistRequestDto> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockPending(manager, id);
      const row = await this.requests.decide(manager, id, { status: 'rejected', reason: reason?.trim() || null, issuedKeyId: null });
      await this.audit.record(actor, { action: 'waitlist.reject', target: id, detail: { reason: row.decisionReason } }, manager);
      return toWaitlistRequestDto(row);
    });
  }

  /** The request, locked until the transaction ends; a decided one refuses a second decision. */
  private async lockPending(manager: EntityManager, id: string): Promise<WaitlistRequest> {
    const row = await this.requests.lock(manager, id);
    if (!row) throw requestNotFound(id);
    if (row.status !== 'pending') throw alreadyDecided(id, row.status);
    return row;
  }
}

function toWaitlistRequestDto(row: WaitlistRequest): WaitlistRequestDto {
  return {
    id: row.id,
    organizationName: row.organizationName,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    useCase: row.useCase,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    issuedKeyId: row.issuedKeyId,
  };
}
