import { DomainError } from '@stdreg/server-kit';

// The unified users' and their merges' refusals (codes and categories declared in IDENTITY_ERRORS).

export function unifiedUserNotFound(uid: string): DomainError {
  return DomainError.of('unified_users.not_found', `Unified user ${uid} does not exist.`);
}

export function beingMerged(uid: string): DomainError {
  return DomainError.of('unified_users.being_merged', `Unified user ${uid} is being merged; try again.`);
}

export function registryNotFound(registryId: string): DomainError {
  return DomainError.of('unified_users.registry_not_found', `Registry ${registryId} does not exist.`);
}

export function appAlreadyLinked(uid: string, registryId: string): DomainError {
  return DomainError.of('unified_users.app_already_linked', `Unified user ${uid} is linked to ${registryId} already.`);
}

export function appNotLinked(uid: string, registryId: string): DomainError {
  return DomainError.of('unified_users.app_not_linked', `Unified user ${uid} has no link to ${registryId}.`);
}

export function mergeIntoItself(): DomainError {
  return DomainError.of('merge.into_itself', 'A user cannot be merged into itself.', {
    errors: [{ field: 'mergedUid', message: 'mergedUid must differ from survivorUid' }],
  });
}

export function alreadyMerged(uid: string, into: string): DomainError {
  return DomainError.of('merge.already_merged', `Unified user ${uid} is merged into ${into} already.`);
}

export function mergeIntoMergedUser(uid: string, into: string): DomainError {
  return DomainError.of('merge.into_merged_user', `Unified user ${uid} is merged into ${into}; merge into that user instead.`);
}

export function mergeNotFound(mergeId: string): DomainError {
  return DomainError.of('merge.not_found', `Merge ${mergeId} does not exist.`);
}

export function mergeAlreadyUndone(mergeId: string, unmergedAt: Date): DomainError {
  return DomainError.of('merge.already_undone', `Merge ${mergeId} was undone already, at ${unmergedAt.toISOString()}.`);
}

export function emailTakenSince(holder: string | null, mergedUid: string): DomainError {
  return DomainError.of(
    'merge.email_taken_since',
    `Unified user ${holder ?? 'another user'} now holds the verified email of ${mergedUid}, which could not be a user of its own again.`,
  );
}

export function survivorMergedSince(survivorUid: string, into: string | null, laterMergeId: string | undefined): DomainError {
  return DomainError.of(
    'merge.survivor_merged_since',
    `The survivor ${survivorUid} has since been merged into ${into}${laterMergeId ? ` (merge ${laterMergeId})` : ''}; undo that merge first.`,
  );
}

export function laterMergeRemovedDuplicates(later: { id: string; mergedUid: string; survivorUid: string }): DomainError {
  return DomainError.of(
    'merge.later_merge_removed_duplicates',
    `Merge ${later.id} (of ${later.mergedUid} into ${later.survivorUid}) removed duplicates of rows this merge moved; undo it first.`,
  );
}
