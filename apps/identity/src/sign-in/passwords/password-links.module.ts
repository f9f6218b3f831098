import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';
import { PasswordLinksRepository } from './password-links.repository';

const PURGE_EVERY_MS = 10 * 60 * 1000;

/** The store of password-setup links, shared by whoever issues, spends or voids them; purges ended links. */
@Module({
  imports: [IdentityConfigModule],
  providers: [PasswordLinksRepository],
  exports: [PasswordLinksRepository],
})
export class PasswordLinksModule implements OnModuleInit, OnModuleDestroy {
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly links: PasswordLinksRepository,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
  ) {}

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => {
      this.links
        .purgeEnded()
        .catch((error: unknown) =>
          this.logger.event('warn', 'purging ended password links failed', { error: String(error) }, 'PasswordLinks'),
        );
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }
}
