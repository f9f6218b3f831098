import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type MergeDto } from '@stdreg/contracts';
import { DomainError, uuidv7 } from '@stdreg/server-kit';
import { AuditService, type Actor } from '../audit/audit.service';
import { MergesRepository, type LockedUser, type UserMerge } from './merges.repository';
import { userNotFound } from './unified-users.service';

/**
 * Merging makes one unified user an alias of another and moves everything it had; unmerging undoes
 * exactly one recorded merge. Aliases of the merged user are re-pointed to the survivor (and pointed
 * back on unmerge), so a merged uid is always one step from a live user.
 */
@Injectable()
export class MergesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly merges: MergesRepository,
    private readonly audit: AuditService,
  ) {}

  async merge(survivor: string, merged: string, actor: Actor): Promise<MergeDto> {
    const [survivorUid, mergedUid] = [survivor.toLowerCase(), merged.toLowerCase()];
    if (survivorUid === mergedUid) {
      throw DomainError.of('merge.into_itself', 'A user cannot be merged into itself.', {
        errors: [{ field: 'mergedUid', message: 'mergedUid must differ from survivorUid' }],
      });
    }
    return this.dataSource.transaction(async (manager) => {
      await this.merges.lockMirrorRegistries(manager, { uid: mergedUid });
      // In uid order, so that concurrent merges cannot deadlock; a merged user is refused at once, before
      // the next lock, because the merge that re-points it may be holding that next lock.
      for (const uid of [survivorUid, mergedUid].sort()) {
        const user = await this.merges.lockUser(manager, uid);
        if (!user) throw userNotFound(uid);
        if (user.mergedInto && uid === mergedUid)
          throw DomainError.of('merge.already_merged', `Unified user ${uid} is merged into ${user.mergedInto} already.`);
        if (user.mergedInto)
          throw DomainError.of(
            'merge.into_merged_user',
            `Unified user ${uid} is merged into ${user.mergedInto}; merge into that user instead.`,
          );
      }
      const moved = await this.merges.moveAll(manager, mergedUid, survivorUid);
      const row = await this.merges.insertMerge(manager, { id: uuidv7(), survivorUid, mergedUid, moved });
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
    });
  }

  async unmerge(mergeId: string, actor: Actor): Promise<MergeDto> {
    return this.dataSource.transaction(async (manager) => {
      const merge = await this.merges.lockMerge(manager, mergeId);
      if (!merge) throw DomainError.of('merge.not_found', `Merge ${mergeId} does not exist.`);
      if (merge.unmergedAt)
        throw DomainError.of('merge.already_undone', `Merge ${mergeId} was undone already, at ${merge.unmergedAt.toISOString()}.`);
      await this.merges.lockMirrorRegistries(manager, { mirrorIds: merge.moved.mirrors });
      // Survivor first, as a merge of the survivor into someone else locks it before re-pointing its aliases.
      const survivor = await this.merges.lockUser(manager, merge.survivorUid);
      await this.merges.lockUser(manager, merge.mergedUid);
      await this.refuseIfDependedOn(manager, merge, survivor!);
      const holder = await this.merges.verifiedEmailHolder(manager, merge.mergedUid);
      if (holder || !(await this.merges.release(manager, merge.mergedUid))) {
        throw DomainError.of(
          'merge.email_taken_since',
          `Unified user ${holder ?? 'another user'} now holds the verified email of ${merge.mergedUid}, which could not be a user of its own again.`,
        );
      }
      const movedBack = await this.merges.moveBack(manager, merge);
      const row = await this.merges.markUnmerged(manager, merge.id);
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
    });
  }

  /**
   * A merge cannot be undone while a later one built on it: the survivor was merged on into someone
   * else (the moved rows went with it), or a later merge into the survivor dropped a duplicate of a
   * row this merge brought (moving that row back would leave the later merged user without it).
   */
  private async refuseIfDependedOn(manager: EntityManager, merge: UserMerge, survivor: LockedUser): Promise<void> {
    if (survivor.mergedInto) {
      const later = await this.merges.findActiveMergeOf(manager, survivor.uid);
      throw DomainError.of(
        'merge.survivor_merged_since',
        `The survivor ${survivor.uid} has since been merged into ${survivor.mergedInto}${later ? ` (merge ${later.id})` : ''}; undo that merge first.`,
      );
    }
    const movedRoles = new Set(merge.moved.roleBindings.map((binding) => roleKey(binding.role, binding.organizationId)));
    const movedLinks = new Set(merge.moved.appLinks);
    for (const later of await this.merges.laterActiveMergesInto(manager, merge)) {
      const dependsOn =
        later.moved.removedRoleBindings.some((binding) => movedRoles.has(roleKey(binding.role, binding.organization_id))) ||
        later.moved.removedAppLinks.some((link) => movedLinks.has(link.registry_id));
      if (dependsOn) {
        throw DomainError.of(
          'merge.later_merge_removed_duplicates',
          `Merge ${later.id} (of ${later.mergedUid} into ${later.survivorUid}) removed duplicates of rows this merge moved; undo it first.`,
        );
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
