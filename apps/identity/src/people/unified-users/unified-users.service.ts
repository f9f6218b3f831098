import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type AppLinkDto, type RoleBindingDto, type UnifiedUserDto } from '@stdreg/contracts';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { appAlreadyLinked, appNotLinked, beingMerged, registryNotFound, unifiedUserNotFound } from './unified-users.errors';
import { UnifiedUsersRepository, type RoleBinding, type UnifiedUser } from './unified-users.repository';

export interface EffectiveRole {
  role: string;
  organizationId: string | null;
}

/** A merge can re-point aliases while we look; a few re-reads always settle (each needs a committed merge). */
const MAX_RESOLVE_ATTEMPTS = 5;

/** Unified users: who a uid is (merged uids resolve to their survivor), what it is linked to, which roles it holds. */
@Injectable()
export class UnifiedUsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UnifiedUsersRepository,
    private readonly audit: AuditService,
  ) {}

  async get(uid: string): Promise<UnifiedUserDto> {
    const user = await this.requireResolved(uid);
    const [aliases, apps, roles] = await Promise.all([
      this.users.aliasesOf(user.uid),
      this.users.appsOf(user.uid),
      this.users.roleBindingsOf(user.uid),
    ]);
    return {
      uid: user.uid,
      email: user.email,
      emailVerified: user.emailVerified,
      displayName: user.displayName,
      aliases,
      apps: apps.map((app) => ({ registryId: app.registryId, via: app.via })),
      roles: roles.map(toRoleBindingDto),
    };
  }

  /** The live user `uid` resolves to (itself, or the survivor it was merged into); null when there is none. */
  findResolved(uid: string, manager?: EntityManager): Promise<UnifiedUser | null> {
    return this.users.findResolved(uid, manager);
  }

  async roleBindingsOf(uid: string): Promise<RoleBindingDto[]> {
    const user = await this.requireResolved(uid);
    return (await this.users.roleBindingsOf(user.uid)).map(toRoleBindingDto);
  }

  /**
   * The roles the user holds, through the survivor when `uid` was merged; none for an unknown uid.
   * Pass the manager when calling inside a transaction.
   */
  async effectiveRoles(uid: string, manager?: EntityManager): Promise<EffectiveRole[]> {
    const user = await this.users.findResolved(uid, manager);
    if (!user) return [];
    const bindings = await this.users.roleBindingsOf(user.uid, manager);
    return bindings.map((binding) => ({ role: binding.role, organizationId: binding.organizationId }));
  }

  /**
   * The live user `uid` resolves to, share-locked in the caller's transaction so that it cannot be
   * merged into someone else before the transaction's writes commit; 404 when there is none.
   */
  async lockResolved(manager: EntityManager, uid: string): Promise<UnifiedUser> {
    for (let attempt = 0; attempt < MAX_RESOLVE_ATTEMPTS; attempt++) {
      const resolved = await this.users.findResolved(uid, manager);
      if (!resolved) throw unifiedUserNotFound(uid);
      const locked = await this.users.lockForShare(manager, resolved.uid);
      if (locked && locked.mergedInto === null) return locked;
    }
    throw beingMerged(uid);
  }

  async linkApp(uid: string, registryId: string, actor: Actor): Promise<AppLinkDto> {
    return this.dataSource.transaction(async (manager) => {
      // The registry first, as mirror writes lock it before the users they link.
      const registry = await this.users.lockActiveRegistry(manager, registryId);
      if (!registry) throw registryNotFound(registryId);
      const user = await this.lockResolved(manager, uid);
      if (!(await this.users.insertAppLink(manager, user.uid, registryId))) {
        throw appAlreadyLinked(user.uid, registryId);
      }
      await this.audit.record(
        actor,
        { action: 'users.link-app', target: user.uid, organizationId: registry.organizationId, detail: { registryId, requestedUid: uid } },
        manager,
      );
      return { registryId, via: 'link' };
    });
  }

  async unlinkApp(uid: string, registryId: string, actor: Actor): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const user = await this.lockResolved(manager, uid);
      if (!(await this.users.deleteAppLink(manager, user.uid, registryId))) {
        throw appNotLinked(user.uid, registryId);
      }
      const organizationId = await this.users.registryOrganization(manager, registryId);
      await this.audit.record(
        actor,
        { action: 'users.unlink-app', target: user.uid, organizationId, detail: { registryId, requestedUid: uid } },
        manager,
      );
    });
  }

  private async requireResolved(uid: string): Promise<UnifiedUser> {
    const user = await this.users.findResolved(uid);
    if (!user) throw unifiedUserNotFound(uid);
    return user;
  }
}

export function toRoleBindingDto(row: RoleBinding): RoleBindingDto {
  return {
    id: row.id,
    uid: row.uid,
    role: row.role,
    organizationId: row.organizationId,
    grantedAt: row.grantedAt.toISOString(),
  };
}
