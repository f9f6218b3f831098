import { Inject, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { JsonLogger, PollingLoop } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';
import { PasswordLinksRepository } from './password-links.repository';

/** The store of password-setup links, shared by whoever issues, spends or voids them; purges ended links. */
@Module({
  imports: [IdentityConfigModule],
  providers: [PasswordLinksRepository],
  exports: [PasswordLinksRepository],
})
export class PasswordLinksModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private purge: PollingLoop | null = null;

  constructor(
    private readonly links: PasswordLinksRepository,
    private readonly config: IdentityConfig,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.purge = new PollingLoop(
      async () => {
        await this.links.purgeEnded();
        return false;
      },
      this.config.PURGE_INTERVAL_MS,
      (error) => this.logger.event('warn', 'purging ended password links failed', { error: String(error) }, 'PasswordLinks'),
    ).start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.purge?.stop();
  }
}
