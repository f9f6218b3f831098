import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

interface Lease<T> {
  value: T;
  startedAtMonotonicMs: number;
  endsAtMonotonicMs: number;
  endsAtWallMs: number;
}

export interface LeaseClock {
  monotonicMs(): number;
  wallMs(): number;
  sleep(ms: number): Promise<void>;
}

export interface LeaseStart {
  monotonicMs: number;
  wallMs: number;
}

const systemClock: LeaseClock = { monotonicMs: () => performance.now(), wallMs: () => Date.now(), sleep: (ms) => sleep(ms) };

/** Above this many leases the oldest is dropped; a dropped lease only costs one query. */
export const MAX_LEASES = 10_000;

/**
 * Short leases on what a decision read from the database, so the next decisions need not read it again,
 * while a write that takes something away still counts at once on every replica. A lease starts before
 * its database read and lasts `leaseMs` on both the monotonic and the wall clock; every write that
 * could end what a lease holds answers only after `outlast`, which waits that long past its commit. By
 * then no lease taken before the commit is alive anywhere, and any read after it sees the change.
 * A lease in use is read again once it is half gone (renewal), so decisions on it never wait for the
 * database; a renewal is a new lease, anchored at its own read. `leaseMs` 0 turns leases off.
 */
export class Leases<T> {
  private readonly leases = new Map<string, Lease<T>>();
  private readonly renewing = new Set<string>();

  constructor(
    private readonly leaseMs: number,
    private readonly clock: LeaseClock = systemClock,
  ) {}

  get enabled(): boolean {
    return this.leaseMs > 0;
  }

  /** The live lease's value, if any. */
  find(key: string): T | null {
    const lease = this.leases.get(key);
    if (!lease) return null;
    if (this.clock.monotonicMs() < lease.endsAtMonotonicMs && this.wallMs() < lease.endsAtWallMs) return lease.value;
    this.leases.delete(key);
    return null;
  }

  /**
   * Whether the caller should read again now: its live lease is half gone and no renewal is under way.
   * A true answer claims the renewal until `hold`, `drop` or `renewalFailed`.
   */
  claimRenewal(key: string): boolean {
    const lease = this.leases.get(key);
    if (!lease || this.renewing.has(key)) return false;
    if (this.clock.monotonicMs() - lease.startedAtMonotonicMs < this.leaseMs / 2) return false;
    this.renewing.add(key);
    return true;
  }

  renewalFailed(key: string): void {
    this.renewing.delete(key);
  }

  /** Ends this replica's lease (a read found the thing gone or no longer usable). */
  drop(key: string): void {
    this.renewing.delete(key);
    this.leases.delete(key);
  }

  /** This replica's wall clock, epoch ms: the one leases and what they hold end by. */
  wallMs(): number {
    return this.clock.wallMs();
  }

  /** Marks the start of a lease: call before the database read whose answer it will hold. */
  start(): LeaseStart {
    return { monotonicMs: this.clock.monotonicMs(), wallMs: this.wallMs() };
  }

  /** `notAfterWallMs`: when what was read stops holding by itself (an expiry), if sooner than the lease. */
  hold(key: string, value: T, startedAt: LeaseStart, notAfterWallMs = Number.POSITIVE_INFINITY): void {
    this.renewing.delete(key);
    if (!this.enabled) return;
    this.leases.delete(key);
    if (this.leases.size >= MAX_LEASES) this.leases.delete(this.leases.keys().next().value!);
    this.leases.set(key, {
      value,
      startedAtMonotonicMs: startedAt.monotonicMs,
      endsAtMonotonicMs: startedAt.monotonicMs + this.leaseMs,
      endsAtWallMs: Math.min(startedAt.wallMs + this.leaseMs, notAfterWallMs),
    });
  }

  /**
   * After a committed write that may end what leases hold: drops this replica's leases it touches (all of
   * them unless `touches` says otherwise), then waits until every replica's lease taken before the
   * commit has run out.
   */
  async outlast(touches: (value: T) => boolean = () => true): Promise<void> {
    for (const [key, lease] of this.leases) if (touches(lease.value)) this.leases.delete(key);
    if (this.enabled) await this.clock.sleep(this.leaseMs);
  }
}
