import { IsUUID } from 'class-validator';

/**
 * identity's stream of subject changes (GET /v1/subject-changes, server-sent events, a service
 * credential): a service that keeps answers of the decision endpoint drops those a change touches, and
 * keeps none while the stream is not open.
 */
export const SUBJECT_CHANGES_PATH = '/v1/subject-changes';
/** Where a service says it has applied a change (POST, a service credential, a `SubjectChangeAppliedDto`). */
export const SUBJECT_CHANGES_APPLIED_PATH = '/v1/subject-changes/applied';
/** The first event of a stream: from now on every change reaches it. */
export const SUBJECT_CHANGES_READY_EVENT = 'ready';
export const SUBJECT_CHANGE_EVENT = 'subject-change';
/**
 * The longest a service reuses an allow, counted from when it asked. A write that changes a subject waits for
 * every open stream to say it applied the change, at most this long: by then an allow kept from before the
 * change has expired on a service that never said so.
 */
export const READ_ALLOW_REUSE_LIMIT_MS = 1000;

export interface SubjectChangesReadyDto {
  /** identity sends something at least this often; a stream silent for three of these is down. */
  heartbeatMs: number;
  /** Names this stream when the service says it applied a change. */
  streamId: string;
}

/** A write ended or changed subjects (a key revoked, a role given or taken, a grant or app ended, a merge, a user deleted). */
export interface SubjectChangeDto {
  /** Names the change when the service says it applied it. */
  changeId: string;
  /** Keys revoked or rotated: answers whose subject is one of them go. */
  keyIds: string[];
  /** People whose roles or existence changed: answers whose subject or supervisor is one of them go. */
  personUids: string[];
  /** Every answer given to an access token goes (a grant, a client or an app ended: whose tokens they were is not known). */
  accessTokens: boolean;
}

/** A service has dropped what a change touches: the write that made it may answer (once every stream has). */
export class SubjectChangeAppliedDto {
  @IsUUID()
  streamId!: string;

  @IsUUID()
  changeId!: string;
}
