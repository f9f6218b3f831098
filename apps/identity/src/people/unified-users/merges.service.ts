import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type MergeDto } from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';
import { MergesRepository, type LockedUser, type UserMerge } from './merges.repository';
import {
  alreadyMerged,
  emailTakenSince,
  laterMergeRemovedDuplicates,
  mergeAlreadyUndone,
  mergeIntoItself,
  mergeIntoMergedUser,
  mergeNotFound,
  survivorMergedSince,
  unifiedUserNotFound,
} from './unified-users.errors';

/**
 * Merging makes one unified user an alias of another and moves everything it had; unmerging undoes
 * exactly one recorded merge. Aliases of the merged user are re-pointed to the survivor (and pointed
 * back on unmerge), so a merged uid is always one step from a live user. Either answers only once
 * every replica's decisions see it (TokenSubjectLeases).
 */
@Injectable()
export class MergesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merges: MergesRepository,
    private readonly audit: AuditService,
    private readonly events: PartnerEventsService,
    private readonly subjectChanges: SubjectChanges,
  ) {}

  /** Each organization that holds a mirror record of either person hears of it; no other does. */
  private async recordEvents(
    manager: EntityManager,
    type: 'user.merged' | 'user.unmerged',
    merge: { id: string; survivorUid: string; mergedUid: string },
    actor: Actor,
  ): Promise<void> {
    for (const organizationId of await this.merges.organizationsMirroring(manager, [merge.survivorUid, merge.mergedUid])) {
      await this.events.record(manager, {
        type,
        organizationId,
        resource: `user:${merge.survivorUid}`,
        actor: eventActorOf(actor),
        data: { mergeId: merge.id, survivorUid: merge.survivorUid, mergedUid: merge.mergedUid },
      });
    }
  }

  async merge(survivor: string, merged: string, actor: Actor): Promise<MergeDto> {
    const [survivorUid, mergedUid] = [survivor.toLowerCase(), merged.toLowerCase()];
    if (survivorUid === mergedUid) {
      throw mergeIntoItself();
    }
    return this.subjectChanges.apply(SubjectChange.people(survivorUid, mergedUid), (write) =>
      this.dataSource.transaction(async (manager) => {
        await this.merges.lockMirrorRegistries(manager, { uid: mergedUid });
        // In uid order, so that concurrent merges cannot deadlock; a merged user is refused at once, before
        // the next lock, because the merge that re-points it may be holding that next lock.
        for (const uid of [survivorUid, mergedUid].sort()) {
          const user = await this.merges.lockUser(manager, uid);
          if (!user) throw unifiedUserNotFound(uid);
          if (user.mergedInto && uid === mergedUid) throw alreadyMerged(uid, user.mergedInto);
          if (user.mergedInto) throw mergeIntoMergedUser(uid, user.mergedInto);
        }
        const moved = await this.merges.moveAll(manager, mergedUid, survivorUid, write);
        const row = await this.merges.insertMerge(manager, { id: uuidv7(), survivorUid, mergedUid, moved });
        await this.recordEvents(manager, 'user.merged', row, actor);
        await this.audit.record(
          actor,
          {
            action: 'users.merge',
            target: row.id,
            detail: { survivorUid: row.survivorUid, mergedUid: row.mergedUid, moved: counts(moved) },
          },
          manager,
        );
        return toMergeDto(row);
      }),
    );
  }

  async unmerge(mergeId: string, actor: Actor): Promise<MergeDto> {
    return this.subjectChanges.apply(
      (undone: MergeDto) => SubjectChange.people(undone.survivorUid, undone.mergedUid),
      (write) =>
        this.dataSource.transaction(async (manager) => {
          const merge = await this.merges.lockMerge(manager, mergeId);
          if (!merge) throw mergeNotFound(mergeId);
          if (merge.unmergedAt) throw mergeAlreadyUndone(mergeId, merge.unmergedAt);
          await this.merges.lockMirrorRegistries(manager, { mirrorIds: merge.moved.mirrors });
          // Survivor first, as a merge of the survivor into someone else locks it before re-pointing its aliases.
          const survivor = await this.merges.lockUser(manager, merge.survivorUid);
          await this.merges.lockUser(manager, merge.mergedUid);
          await this.refuseIfDependedOn(manager, merge, survivor!);
          const holder = await this.merges.verifiedEmailHolder(manager, merge.mergedUid);
          if (holder || !(await this.merges.release(manager, merge.mergedUid, write))) {
            throw emailTakenSince(holder, merge.mergedUid);
          }
          const movedBack = await this.merges.moveBack(manager, merge, write);
          const row = await this.merges.markUnmerged(manager, merge.id);
          await this.recordEvents(manager, 'user.unmerged', row, actor);
          await this.audit.record(
            actor,
            {
              action: 'users.unmerge',
              target: row.id,
              detail: {
                survivorUid: row.survivorUid,
                mergedUid: row.mergedUid,
                movedBack: {
                  ...counts(movedBack),
                  removedAppLinks: merge.moved.removedAppLinks.length,
                  removedRoleBindings: merge.moved.removedRoleBindings.length,
                },
                goneSince: goneSince(merge, movedBack),
              },
            },
            manager,
          );
          return toMergeDto(row);
        }),
    );
  }

  /**
   * A merge cannot be undone while a later one built on it: the survivor was merged on into someone
   * else (the moved rows went with it), or a later merge into the survivor dropped a duplicate of a
   * row this merge brought (moving that row back would leave the later merged user without it).
   */
  private async refuseIfDependedOn(manager: EntityManager, merge: UserMerge, survivor: LockedUser): Promise<void> {
    if (survivor.mergedInto) {
      const later = await this.merges.findActiveMergeOf(manager, survivor.uid);
      throw survivorMergedSince(survivor.uid, survivor.mergedInto, later?.id);
    }
    const movedRoles = new Set(merge.moved.roleBindings.map((binding) => roleKey(binding.role, binding.organizationId)));
    const movedLinks = new Set(merge.moved.appLinks);
    for (const later of await this.merges.laterActiveMergesInto(manager, merge)) {
      const dependsOn =
        later.moved.removedRoleBindings.some((binding) => movedRoles.has(roleKey(binding.role, binding.organization_id))) ||
        later.moved.removedAppLinks.some((link) => movedLinks.has(link.registry_id));
      if (dependsOn) {
        throw laterMergeRemovedDuplicates(later);
      }
    }
  }
}

function roleKey(role: string, organizationId: string | null): string {
  return `${role}@${organizationId ?? '*'}`;
}

function counts(lists: object): Record<string, number> {
  return Object.fromEntries(Object.entries(lists as Record<string, unknown[]>).map(([name, list]) => [name, list.length]));
}

/** Recorded rows that were not with the survivor any more (deleted or revoked since the merge). */
function goneSince(
  merge: UserMerge,
  movedBack: { mirrors: string[]; appLinks: string[]; roleBindings: string[] },
): Record<string, string[]> {
  const missing = (recorded: string[], back: string[]) => recorded.filter((id) => !back.includes(id));
  return {
    mirrors: missing(merge.moved.mirrors, movedBack.mirrors),
    appLinks: missing(merge.moved.appLinks, movedBack.appLinks),
    roleBindings: missing(
      merge.moved.roleBindings.map((binding) => binding.id),
      movedBack.roleBindings,
    ),
  };
}

function toMergeDto(row: UserMerge): MergeDto {
  return {
    id: row.id,
    survivorUid: row.survivorUid,
    mergedUid: row.mergedUid,
    mergedAt: row.mergedAt.toISOString(),
    unmergedAt: row.unmergedAt?.toISOString() ?? null,
  };
}
