import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { READ_ALLOW_REUSE_LIMIT_MS, type SubjectChangeAppliedDto, type SubjectChangeDto } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';

/**
 * How long a change waits for this replica's publisher to reconnect before it is given up (and this replica's
 * streams closed): longer than a reconnect attempt takes (retries at most a second apart, 2 s to connect).
 */
const PUBLISHER_READY_WAIT_MS = 3500;

/** How long a change waits for streams to apply it: READ_ALLOW_REUSE_LIMIT_MS, other than that only in tests. */
export const SUBJECT_CHANGE_SETTLE_LIMIT_MS = Symbol('SUBJECT_CHANGE_SETTLE_LIMIT_MS');

/** An open stream to a service: it hears every change, and hears `closed` when the channel can no longer promise that. */
export interface SubjectChangeListener {
  change(change: SubjectChangeDto): void;
  closed(): void;
}

/** A change this replica passed to its streams: those that have not yet said they applied it. */
interface Unapplied {
  streamIds: Set<string>;
  settle(): void;
}

/** A change this replica wrote: how many replicas have settled it (every stream of theirs applied it, or the wait ran out). */
interface Settling {
  replicasSettled: number;
  replicasToSettle: number;
  settle(): void;
}

/**
 * Carries subject changes from the replica that wrote them to every replica's open streams: through
 * Redis pub/sub with REDIS_URL, in process without (one replica). While this replica is not subscribed
 * (Redis away) it is down: its streams are closed and new ones refused, so services keep no answers.
 *
 * A change is settled once every stream open when it arrived has said it applied it (POST
 * /v1/subject-changes/applied, to any replica: one that does not hold the stream passes the word on), or
 * closed, or READ_ALLOW_REUSE_LIMIT_MS has passed, after which no allow a service kept from before it is
 * still reused. `publish` resolves when every replica subscribed has settled it.
 */
@Injectable()
export class SubjectChangeChannel implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly streams = new Map<string, SubjectChangeListener>();
  private readonly unapplied = new Map<string, Unapplied>();
  private readonly settling = new Map<string, Settling>();
  private readonly changesName: string;
  private readonly appliedName: string;
  private readonly settledName: string;
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private subscribed = false;
  private stopping = false;

  constructor(
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
    @Optional() @Inject(SUBJECT_CHANGE_SETTLE_LIMIT_MS) private readonly settleLimitMs: number = READ_ALLOW_REUSE_LIMIT_MS,
  ) {
    this.changesName = `${config.REDIS_KEY_PREFIX}subject-changes`;
    this.appliedName = `${this.changesName}:applied`;
    this.settledName = `${this.changesName}:settled`;
  }

  onModuleInit(): void {
    const url = this.config.REDIS_URL;
    if (!url) return;
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 };
    const retryStrategy = (attempt: number) => Math.min(attempt * 100, 1000);
    this.publisher = new Redis(url, { ...options, retryStrategy });
    this.publisher.on('error', () => undefined);
    this.subscriber = new Redis(url, { ...options, retryStrategy, autoResubscribe: false });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('close', () => this.down());
    this.subscriber.on('message', (channel: string, message: string) => this.heard(channel, message));
  }

  /** Before the HTTP server closes: it waits for open streams. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
    this.closeStreams();
  }

  onApplicationShutdown(): void {
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  /** Whether a stream opened now would hear every change. */
  get up(): boolean {
    return !this.stopping && (this.subscriber === undefined || this.subscribed);
  }

  /** Null while the channel is down. */
  listen(listener: SubjectChangeListener): { streamId: string; stop(): void } | null {
    if (!this.up) return null;
    const streamId = randomUUID();
    this.streams.set(streamId, listener);
    return { streamId, stop: () => this.forgetStream(streamId) };
  }

  /** Resolves once every open stream of every replica has applied the change, or could keep nothing from before it. */
  async publish(touched: Omit<SubjectChangeDto, 'changeId'>): Promise<void> {
    const change: SubjectChangeDto = { changeId: randomUUID(), ...touched };
    if (!this.publisher) return this.deliver(change);
    const settled = this.awaitSettled(change.changeId);
    try {
      // Reconnecting after Redis was away, this replica's publisher may be back later than other replicas'
      // subscribers, whose services then reuse allows again: a change dropped now would go unheard there.
      await this.untilPublisherReady(this.publisher);
      settled.expect(await this.publisher.publish(this.changesName, JSON.stringify(change)));
      await settled.done;
    } catch (error) {
      // The change is written and its leases are out, but other replicas' services may not hear of it:
      // this replica's streams close so its services at least keep nothing, and the operator hears.
      this.logger.event('error', 'a subject change could not be published', { error: String(error) }, 'SubjectChanges');
      this.closeStreams();
    } finally {
      settled.stopWaiting();
    }
  }

  /** A service says one of its streams applied a change. */
  applied(word: SubjectChangeAppliedDto): void {
    if (this.streams.has(word.streamId) || !this.publisher) return this.streamApplied(word);
    // Another replica's stream (a load balancer brought the word here): it passes on, or its wait runs out.
    this.publisher.publish(this.appliedName, JSON.stringify(word)).catch(() => undefined);
  }

  private heard(channel: string, message: string): void {
    if (channel === this.changesName) {
      const change = JSON.parse(message) as SubjectChangeDto;
      void this.deliver(change).then(() => this.publisher?.publish(this.settledName, change.changeId).catch(() => undefined));
    } else if (channel === this.appliedName) {
      this.streamApplied(JSON.parse(message) as SubjectChangeAppliedDto);
    } else if (channel === this.settledName) {
      const settling = this.settling.get(message);
      if (settling && ++settling.replicasSettled >= settling.replicasToSettle) settling.settle();
    }
  }

  /**
   * Registered before the publish, as a replica may settle before the publish's answer arrives; the limit counts
   * from that answer (`expect`), when every replica has the change.
   */
  private awaitSettled(changeId: string): { expect(replicas: number): void; done: Promise<void>; stopWaiting(): void } {
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    let timer: NodeJS.Timeout | undefined;
    const settling: Settling = { replicasSettled: 0, replicasToSettle: Number.POSITIVE_INFINITY, settle };
    this.settling.set(changeId, settling);
    return {
      expect: (replicas) => {
        settling.replicasToSettle = replicas;
        if (settling.replicasSettled >= replicas) settle();
        else timer = setTimeout(() => settle(), this.settleLimitMs);
      },
      done,
      stopWaiting: () => {
        clearTimeout(timer);
        this.settling.delete(changeId);
      },
    };
  }

  private untilPublisherReady(publisher: Redis): Promise<void> {
    if (publisher.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const ready = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        publisher.off('ready', ready);
        reject(new Error(`Redis did not answer within ${PUBLISHER_READY_WAIT_MS} ms`));
      }, PUBLISHER_READY_WAIT_MS);
      publisher.once('ready', ready);
    });
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber!.subscribe(this.changesName, this.appliedName, this.settledName);
      this.subscribed = true;
    } catch {
      this.subscriber!.disconnect(true);
    }
  }

  /** Passes the change to this replica's open streams; resolves when each has applied it, closed, or the limit passed. */
  private deliver(change: SubjectChangeDto): Promise<void> {
    const streamIds = new Set(this.streams.keys());
    if (streamIds.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(), this.settleLimitMs);
      const settle = () => {
        clearTimeout(timer);
        this.unapplied.delete(change.changeId);
        resolve();
      };
      this.unapplied.set(change.changeId, { streamIds, settle });
      for (const streamId of streamIds) this.streams.get(streamId)?.change(change);
    });
  }

  private streamApplied({ streamId, changeId }: SubjectChangeAppliedDto): void {
    const unapplied = this.unapplied.get(changeId);
    if (unapplied?.streamIds.delete(streamId) && unapplied.streamIds.size === 0) unapplied.settle();
  }

  /** A stream that ended applies nothing more: its service, on hearing it end, keeps nothing. */
  private forgetStream(streamId: string): void {
    this.streams.delete(streamId);
    for (const changeId of [...this.unapplied.keys()]) this.streamApplied({ streamId, changeId });
  }

  private down(): void {
    this.subscribed = false;
    this.closeStreams();
  }

  private closeStreams(): void {
    const streams = [...this.streams];
    for (const [streamId] of streams) this.forgetStream(streamId);
    for (const [, listener] of streams) listener.closed();
  }
}
