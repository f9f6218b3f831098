/**
 * identity's stream of subject changes (GET /v1/subject-changes, server-sent events, a service
 * credential): a service that keeps answers of the decision endpoint drops those a change touches, and
 * keeps none while the stream is not open.
 */
export const SUBJECT_CHANGES_PATH = '/v1/subject-changes';
/** The first event of a stream: from now on every change reaches it. */
export const SUBJECT_CHANGES_READY_EVENT = 'ready';
export const SUBJECT_CHANGE_EVENT = 'subject-change';

export interface SubjectChangesReadyDto {
  /** identity sends something at least this often; a stream silent for three of these is down. */
  heartbeatMs: number;
}

/** A write ended or changed subjects (a key revoked, a role given or taken, a grant or app ended, a merge, a user deleted). */
export interface SubjectChangeDto {
  /** Keys revoked or rotated: answers whose subject is one of them go. */
  keyIds: string[];
  /** People whose roles or existence changed: answers whose subject or supervisor is one of them go. */
  personUids: string[];
  /** Every answer given to an access token goes (a grant, a client or an app ended: whose tokens they were is not known). */
  accessTokens: boolean;
}
