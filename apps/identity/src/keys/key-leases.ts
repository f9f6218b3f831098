import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyCaller } from '../callers/caller';

/** What a decision needs of a key, as read from the database at the start of a lease. */
export interface LeasedCredential {
  caller: KeyCaller;
  secretHash: Buffer;
  /** When the secret stops working (a rotated key's previous secret), epoch ms; null while current. */
  secretExpiresAtMs: number | null;
}

interface Lease {
  credential: LeasedCredential;
  startedAtMonotonicMs: number;
  endsAtMonotonicMs: number;
  endsAtWallMs: number;
}

export interface LeaseClock {
  monotonicMs(): number;
  wallMs(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: LeaseClock = { monotonicMs: () => performance.now(), wallMs: () => Date.now(), sleep: (ms) => sleep(ms) };

/** Above this many keys the oldest lease is dropped; a dropped lease only costs one query. */
export const MAX_LEASES = 10_000;

/**
 * Short leases on key credentials for the decision endpoint, so a decision need not read the database.
 * Revocation still counts at once on every replica: a lease starts before its database read, lasts
 * KEY_LEASE_MS on both the monotonic and the wall clock, and every write that ends a secret (revoke,
 * rotate) answers only after waiting that long past its commit. By then no lease taken before the
 * commit is alive anywhere, and any read after it sees the change. KEY_LEASE_MS=0 turns leases off.
 * A key in use is read again once its lease is half gone (renewal), so decisions on it never wait for
 * the database; a renewal is a new lease, anchored at its own read.
 */
export class KeyLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly renewing = new Set<string>();

  constructor(
    private readonly leaseMs: number,
    private readonly clock: LeaseClock = systemClock,
  ) {}

  get enabled(): boolean {
    return this.leaseMs > 0;
  }

  /** The live lease on a key prefix, if any. */
  find(prefix: string): LeasedCredential | null {
    const lease = this.leases.get(prefix);
    if (!lease) return null;
    if (this.clock.monotonicMs() < lease.endsAtMonotonicMs && this.clock.wallMs() < lease.endsAtWallMs) return lease.credential;
    this.leases.delete(prefix);
    return null;
  }

  /**
   * Whether the caller should read the key again now: its live lease is half gone and no renewal is
   * under way. A true answer claims the renewal until `hold`, `drop` or `renewalFailed`.
   */
  claimRenewal(prefix: string): boolean {
    const lease = this.leases.get(prefix);
    if (!lease || this.renewing.has(prefix)) return false;
    if (this.clock.monotonicMs() - lease.startedAtMonotonicMs < this.leaseMs / 2) return false;
    this.renewing.add(prefix);
    return true;
  }

  renewalFailed(prefix: string): void {
    this.renewing.delete(prefix);
  }

  /** Ends this replica's lease on a prefix (a read found the key revoked or gone). */
  drop(prefix: string): void {
    this.renewing.delete(prefix);
    this.leases.delete(prefix);
  }

  /** Marks the start of a lease: call before the database read whose answer it will hold. */
  start(): { monotonicMs: number; wallMs: number } {
    return { monotonicMs: this.clock.monotonicMs(), wallMs: this.clock.wallMs() };
  }

  hold(prefix: string, credential: LeasedCredential, startedAt: { monotonicMs: number; wallMs: number }): void {
    this.renewing.delete(prefix);
    if (!this.enabled) return;
    this.leases.delete(prefix);
    if (this.leases.size >= MAX_LEASES) this.leases.delete(this.leases.keys().next().value!);
    this.leases.set(prefix, {
      credential,
      startedAtMonotonicMs: startedAt.monotonicMs,
      endsAtMonotonicMs: startedAt.monotonicMs + this.leaseMs,
      endsAtWallMs: startedAt.wallMs + this.leaseMs,
    });
  }

  /**
   * After a committed write that ends secrets of a key: drops this replica's leases on it, then waits
   * until every replica's lease taken before the commit has run out.
   */
  async outlast(keyId: string): Promise<void> {
    for (const [prefix, lease] of this.leases) if (lease.credential.caller.keyId === keyId) this.leases.delete(prefix);
    if (this.enabled) await this.clock.sleep(this.leaseMs);
  }
}
