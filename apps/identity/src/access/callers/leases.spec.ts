import { KeyClass } from '@stdreg/contracts';
import { KeyLeases, type LeasedCredential } from './key-leases';
import { Leases, MAX_LEASES, type LeaseClock } from './leases';

/** A clock that moves only when told to; sleeping advances it (after the caller's synchronous part). */
class ManualClock implements LeaseClock {
  monotonic = 1_000;
  wall = 1_700_000_000_000;
  slept: number[] = [];
  monotonicMs = () => this.monotonic;
  wallMs = () => this.wall;
  advance(ms: number, wallMs = ms): void {
    this.monotonic += ms;
    this.wall += wallMs;
  }
  sleep = async (ms: number) => {
    await Promise.resolve();
    this.slept.push(ms);
    this.advance(ms);
  };
}

const credential = (keyId: string): LeasedCredential => ({
  caller: {
    keyId,
    keyPrefix: `p-${keyId}`,
    keyClass: KeyClass.App,
    organizationId: null,
    registryIds: [],
    maxApps: 3,
    agentSupervisorUid: null,
  },
  secretHash: Buffer.alloc(32),
  secretExpiresAtMs: null,
});

describe('Leases', () => {
  let clock: ManualClock;
  let leases: KeyLeases;
  beforeEach(() => {
    clock = new ManualClock();
    leases = new KeyLeases(250, clock);
  });

  it('holds a credential for the lease, counted from before the read', () => {
    const startedAt = leases.start();
    clock.advance(100); // the database read
    leases.hold('p1', credential('k1'), startedAt);
    expect(leases.find('p1')?.caller.keyId).toBe('k1');
    clock.advance(149);
    expect(leases.find('p1')).not.toBeNull();
    clock.advance(1);
    expect(leases.find('p1')).toBeNull();
  });

  it('ends a lease early when the wall clock has jumped past it (a paused machine)', () => {
    leases.hold('p1', credential('k1'), leases.start());
    clock.advance(10, 60_000);
    expect(leases.find('p1')).toBeNull();
  });

  it('outlasts a key: drops its leases here and waits out the lease for the other replicas', async () => {
    leases.hold('p1', credential('k1'), leases.start());
    leases.hold('p2', credential('k1'), leases.start());
    leases.hold('p3', credential('k2'), leases.start());
    const before = clock.monotonic;
    const waiting = leases.outlastKey('k1');
    expect(leases.find('p1')).toBeNull();
    expect(leases.find('p2')).toBeNull();
    expect(leases.find('p3')).not.toBeNull();
    await waiting;
    expect(clock.slept).toEqual([250]);
    expect(clock.monotonic - before).toBe(250);
  });

  it('outlasts any write: drops every lease here when not told which it touches', async () => {
    const subjects = new Leases<string>(250, clock);
    subjects.hold('a', 'one', subjects.start());
    subjects.hold('b', 'two', subjects.start());
    const waiting = subjects.outlast();
    expect(subjects.find('a')).toBeNull();
    expect(subjects.find('b')).toBeNull();
    await waiting;
    expect(clock.slept).toEqual([250]);
  });

  it('ends a lease when what it holds expires by itself, before the lease would', () => {
    const startedAt = leases.start();
    leases.hold('p1', credential('k1'), startedAt, clock.wall + 100);
    clock.advance(99);
    expect(leases.find('p1')).not.toBeNull();
    clock.advance(1);
    expect(leases.find('p1')).toBeNull();
    leases.hold('p2', credential('k1'), leases.start(), clock.wall + 10_000);
    clock.advance(250);
    expect(leases.find('p2')).toBeNull();
  });

  it('asks for one renewal once a lease is half gone, and the renewal is a new lease from its own read', () => {
    leases.hold('p1', credential('k1'), leases.start());
    clock.advance(124);
    expect(leases.claimRenewal('p1')).toBe(false);
    clock.advance(1);
    expect(leases.claimRenewal('p1')).toBe(true);
    expect(leases.claimRenewal('p1')).toBe(false);
    const renewalStartedAt = leases.start();
    clock.advance(200);
    leases.hold('p1', credential('k1'), renewalStartedAt);
    expect(leases.find('p1')).not.toBeNull();
    clock.advance(50);
    expect(leases.find('p1')).toBeNull();
  });

  it('lets a failed renewal be tried again, and ends the lease when the renewal finds the key gone', () => {
    leases.hold('p1', credential('k1'), leases.start());
    clock.advance(200);
    expect(leases.claimRenewal('p1')).toBe(true);
    leases.renewalFailed('p1');
    expect(leases.find('p1')).not.toBeNull();
    expect(leases.claimRenewal('p1')).toBe(true);
    leases.drop('p1');
    expect(leases.find('p1')).toBeNull();
    expect(leases.claimRenewal('p1')).toBe(false);
  });

  it('holds nothing and waits for nothing when leases are off', async () => {
    const off = new KeyLeases(0, clock);
    off.hold('p1', credential('k1'), off.start());
    expect(off.find('p1')).toBeNull();
    await off.outlastKey('k1');
    expect(clock.slept).toEqual([]);
  });

  it(`keeps at most ${MAX_LEASES} leases, dropping the oldest`, () => {
    for (let i = 0; i <= MAX_LEASES; i++) leases.hold(`p${i}`, credential(`k${i}`), leases.start());
    expect(leases.find('p0')).toBeNull();
    expect(leases.find('p1')).not.toBeNull();
    expect(leases.find(`p${MAX_LEASES}`)).not.toBeNull();
  });
});
