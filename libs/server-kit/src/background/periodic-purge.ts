import type { FactoryProvider, OnApplicationBootstrap, OnApplicationShutdown, Type } from '@nestjs/common';
import { JsonLogger } from '../logging/json-logger';
import { PollingLoop } from './polling-loop';

/**
 * The purge of what a service keeps for a while only, provided by the module that owns it: once at start, then
 * `intervalMs` after each purge. A purge that throws is logged as a warning with its error and tried again after
 * PollingLoop's back-off; shutdown waits for the purge under way, so the database is closed after it.
 */
export class PeriodicPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: PollingLoop | null = null;

  /**
   * The provider of a module's purge: `purge` is given the module's `owner` (the repository of what is purged),
   * and the interval is the service's `PURGE_INTERVAL_MS`.
   */
  static of<Owner>(
    owner: Type<Owner>,
    config: Type<{ PURGE_INTERVAL_MS: number }>,
    purge: (owner: Owner) => Promise<unknown>,
    failure: { message: string; context: string },
  ): FactoryProvider<PeriodicPurge> {
    return {
      provide: PeriodicPurge,
      inject: [owner, config, JsonLogger],
      useFactory: (instance: Owner, settings: { PURGE_INTERVAL_MS: number }, logger: JsonLogger) =>
        new PeriodicPurge(() => purge(instance), settings.PURGE_INTERVAL_MS, logger, failure),
    };
  }

  constructor(
    private readonly purge: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly logger: JsonLogger,
    private readonly failure: { message: string; context: string },
  ) {}

  onApplicationBootstrap(): void {
    this.loop = new PollingLoop(
      async () => {
        await this.purge();
        return false;
      },
      this.intervalMs,
      (error) => this.logger.event('warn', this.failure.message, { error: String(error) }, this.failure.context),
    ).start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }
}
