import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type GrantRoleRequestDto, type RoleBindingDto } from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { toRoleBindingDto, UnifiedUsersService } from '../unified-users/unified-users.service';
import { organizationUnknown, roleAlreadyHeld, roleBindingNotFound } from './role-bindings.errors';
import { RoleBindingsRepository } from './role-bindings.repository';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';

/** Roles of unified users, global or scoped to an organization, granted and revoked by platform operators. */
@Injectable()
export class RoleBindingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bindings: RoleBindingsRepository,
    private readonly users: UnifiedUsersService,
    private readonly audit: AuditService,
    private readonly events: PartnerEventsService,
    private readonly subjectChanges: SubjectChanges,
  ) {}

  /** A role given or taken counts for signed-in people at once when this answers (TokenSubjectLeases). */
  async grant(request: GrantRoleRequestDto, actor: Actor): Promise<RoleBindingDto> {
    const organizationId = request.organizationId ?? null;
    return this.subjectChanges.apply(
      (granted: RoleBindingDto) => SubjectChange.people(granted.uid),
      (write) =>
        this.dataSource.transaction(async (manager) => {
          const user = await this.users.lockResolved(manager, request.uid);
          if (organizationId !== null && !(await this.bindings.organizationExists(manager, organizationId))) {
            throw organizationUnknown(organizationId);
          }
          const row = await this.bindings.insert(manager, { id: uuidv7(), uid: user.uid, role: request.role, organizationId }, write);
          if (!row) throw roleAlreadyHeld(user.uid, request.role, organizationId);
          await this.recordEvent(manager, 'role.granted', row, actor);
          await this.audit.record(
            actor,
            {
              action: 'roles.grant',
              target: row.id,
              organizationId: row.organizationId,
              detail: { uid: row.uid, role: row.role, organizationId: row.organizationId, requestedUid: request.uid },
            },
            manager,
          );
          return toRoleBindingDto(row);
        }),
    );
  }

  async revoke(id: string, actor: Actor): Promise<void> {
    await this.subjectChanges.apply(
      (uid: string) => SubjectChange.people(uid),
      (write) =>
        this.dataSource.transaction(async (manager) => {
          const row = await this.bindings.delete(manager, id, write);
          if (!row) throw roleBindingNotFound(id);
          await this.recordEvent(manager, 'role.revoked', row, actor);
          await this.audit.record(
            actor,
            {
              action: 'roles.revoke',
              target: row.id,
              organizationId: row.organizationId,
              detail: { uid: row.uid, role: row.role, organizationId: row.organizationId },
            },
            manager,
          );
          return row.uid;
        }),
    );
  }

  /** An organization hears of its own roles; a global role concerns no organization, and no partner is told of it. */
  private async recordEvent(
    manager: EntityManager,
    type: 'role.granted' | 'role.revoked',
    row: { id: string; uid: string; role: string; organizationId: string | null },
    actor: Actor,
  ): Promise<void> {
    if (row.organizationId === null) return;
    await this.events.record(manager, {
      type,
      organizationId: row.organizationId,
      resource: `user:${row.uid}`,
      actor: eventActorOf(actor),
      data: { roleBindingId: row.id, uid: row.uid, role: row.role },
    });
  }

  async list(uid: string): Promise<{ items: RoleBindingDto[] }> {
    return { items: await this.users.roleBindingsOf(uid) };
  }
}
