import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { SubjectChangeDto } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';

/**
 * How long a change waits for this replica's publisher to reconnect before it is given up (and this replica's
 * streams closed): longer than a reconnect attempt takes (retries at most a second apart, 2 s to connect).
 */
const PUBLISHER_READY_WAIT_MS = 3500;

/** An open stream to a service: it hears every change, and hears `closed` when the channel can no longer promise that. */
export interface SubjectChangeListener {
  change(change: SubjectChangeDto): void;
  closed(): void;
}

/**
 * Carries subject changes from the replica that wrote them to every replica's open streams: through
 * Redis pub/sub with REDIS_URL, in process without (one replica). While this replica is not subscribed
 * (Redis away) it is down: its streams are closed and new ones refused, so services keep no answers.
 */
@Injectable()
export class SubjectChangeChannel implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly listeners = new Set<SubjectChangeListener>();
  private readonly name: string;
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private subscribed = false;
  private stopping = false;

  constructor(
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
  ) {
    this.name = `${config.REDIS_KEY_PREFIX}subject-changes`;
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
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.name) this.deliver(JSON.parse(message) as SubjectChangeDto);
    });
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
  listen(listener: SubjectChangeListener): (() => void) | null {
    if (!this.up) return null;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async publish(change: SubjectChangeDto): Promise<void> {
    if (!this.publisher) return this.deliver(change);
    try {
      // Reconnecting after Redis was away, this replica's publisher may be back later than other replicas'
      // subscribers, whose services then reuse allows again: a change dropped now would go unheard there.
      await this.untilPublisherReady(this.publisher);
      await this.publisher.publish(this.name, JSON.stringify(change));
    } catch (error) {
      // The change is written and its leases are out, but other replicas' services may not hear of it:
      // this replica's streams close so its services at least keep nothing, and the operator hears.
      this.logger.event('error', 'a subject change could not be published', { error: String(error) }, 'SubjectChanges');
      this.closeStreams();
    }
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
      await this.subscriber!.subscribe(this.name);
      this.subscribed = true;
    } catch {
      this.subscriber!.disconnect(true);
    }
  }

  private deliver(change: SubjectChangeDto): void {
    for (const listener of this.listeners) listener.change(change);
  }

  private down(): void {
    this.subscribed = false;
    this.closeStreams();
  }

  private closeStreams(): void {
    for (const listener of [...this.listeners]) listener.closed();
    this.listeners.clear();
  }
}
