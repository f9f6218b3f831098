import type { EffectiveRoleBinding } from './decision-subject';
import { Leases } from './leases';

/** What a decision on a user access token read of its subject while the client, grant and token were in force. */
export interface LeasedTokenSubject {
  /** The live user the token's uid resolved to (itself, or the survivor of a merge). */
  uid: string;
  roles: EffectiveRoleBinding[];
}

/**
 * Leases on access-token subjects for the decision endpoint (TOKEN_SUBJECT_LEASE_MS), keyed by the
 * token's user, client, grant and jti. What such a lease holds can be ended by many writes: revoking the
 * token, ending its grant, deleting its client (or the app, or revoking the key that registered it),
 * a role binding given or taken, a merge or an unmerge, a deleted user. Each of them answers only after
 * `outlast()`, which drops every lease of this replica: those writes are rare, decisions are not.
 */
export class TokenSubjectLeases extends Leases<LeasedTokenSubject> {}
