import { Injectable } from '@nestjs/common';
import type { DecisionSubject } from './decision-subject';
import { keyKindOf, type KeyCaller } from './caller';
import { KeyLeases, type LeasedCredential } from './key-leases';
import { parseKey, secretMatches, type ParsedKey } from './key-secret';
import { KeyCredentialsRepository } from './key-credentials.repository';

/** Who a key is, without what may change under a lease (its registry bindings). */
export type KeyIdentity = Pick<KeyCaller, 'keyId' | 'keyPrefix' | 'keyClass' | 'organizationId' | 'agentSupervisorUid'>;

/**
 * The key check, on every keyed request and every decision on a key: a presented secret to the key it
 * belongs to, from the database (identity's own routes) or from this replica's lease (the decision
 * endpoint). Managing keys is KeysService's (keys/).
 */
@Injectable()
export class KeyAuthentication {
  constructor(
    private readonly credentials: KeyCredentialsRepository,
    private readonly leases: KeyLeases,
  ) {}

  /** The key behind a presented secret, if it is valid now, read from the database. */
  async authenticate(presented: string): Promise<KeyCaller | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    const credential = await this.readCredential(parsed.prefix, this.leases.wallMs());
    return credential && accepts(credential, parsed, presented, this.leases.wallMs()) ? credential.caller : null;
  }

  /**
   * The key a refused credential names when its prefix is one identity issued (revoked, rotated out,
   * or presented with a wrong secret); null for a made-up key.
   */
  async refusedKey(presented: string): Promise<Pick<KeyIdentity, 'keyPrefix' | 'keyClass' | 'agentSupervisorUid'> | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    const row = await this.credentials.findCredential(parsed.prefix);
    return row ? { keyPrefix: parsed.prefix, keyClass: row.keyClass, agentSupervisorUid: row.agentSupervisorUid } : null;
  }

  /**
   * The same answer for the decision endpoint, from this replica's lease on the key while one is live
   * (KeyLeases: revocation still counts at once). Registry bindings may be a lease old, so they are left out.
   */
  async authenticateLeased(presented: string): Promise<KeyIdentity | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    let credential = this.leases.find(parsed.prefix);
    if (credential && this.leases.claimRenewal(parsed.prefix)) void this.renewLease(parsed.prefix);
    if (!credential) {
      const startedAt = this.leases.start();
      credential = await this.readCredential(parsed.prefix, startedAt.wallMs);
      if (credential) this.leases.hold(parsed.prefix, credential, startedAt);
    }
    if (!credential || !accepts(credential, parsed, presented, this.leases.wallMs())) return null;
    const { keyId, keyPrefix, keyClass, organizationId, agentSupervisorUid } = credential.caller;
    return { keyId, keyPrefix, keyClass, organizationId, agentSupervisorUid };
  }

  /** Reads a leased key again in the background; a failed read leaves the lease to run out. */
  private async renewLease(prefix: string): Promise<void> {
    const startedAt = this.leases.start();
    try {
      const credential = await this.readCredential(prefix, startedAt.wallMs);
      if (credential) this.leases.hold(prefix, credential, startedAt);
      else this.leases.drop(prefix);
    } catch {
      this.leases.renewalFailed(prefix);
    }
  }

  /**
   * A key that is not revoked, with its secret's hash and expiry; null when there is none. The database
   * ends a rotated-out secret on its own clock (now() + grace), so the expiry is read as time left by that
   * clock and placed on this replica's from `readStartedAtMs`, the wall time before the read.
   */
  private async readCredential(prefix: string, readStartedAtMs: number): Promise<LeasedCredential | null> {
    const row = await this.credentials.findCredential(prefix);
    if (!row || row.revokedAt !== null) return null;
    return {
      caller: {
        keyId: row.keyId,
        keyPrefix: prefix,
        keyClass: row.keyClass,
        organizationId: row.organizationId,
        registryIds: row.registryIds,
        maxApps: row.maxApps,
        agentSupervisorUid: row.agentSupervisorUid,
      },
      secretHash: row.secretHash,
      secretExpiresAtMs: row.expiresInMs === null ? null : readStartedAtMs + row.expiresInMs,
    };
  }

  /** The decision subject a presented key is, from its lease; null when it is not valid now. */
  async subjectOf(presented: string): Promise<DecisionSubject | null> {
    const caller = await this.authenticateLeased(presented);
    if (!caller) return null;
    const { keyId, keyPrefix, organizationId } = caller;
    const key = keyKindOf(caller);
    switch (key.kind) {
      case 'agent':
        return { kind: 'agent', via: 'key', keyId, keyPrefix, organizationId, supervisorUid: key.supervisorUid };
      case 'platform_key':
        return { kind: 'platform_key', keyId, keyPrefix };
      case 'app_key':
        return { kind: 'app_key', keyId, keyPrefix, organizationId };
    }
  }
}

function accepts(credential: LeasedCredential, parsed: ParsedKey, presented: string, nowMs: number): boolean {
  if (credential.caller.keyClass !== parsed.keyClass) return false;
  if (credential.secretExpiresAtMs !== null && credential.secretExpiresAtMs <= nowMs) return false;
  return secretMatches(presented, credential.secretHash);
}
