import { Module } from '@nestjs/common';
import { PeriodicPurge } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';
import { PasswordLinksRepository } from './password-links.repository';

/** The store of password-setup links, shared by whoever issues, spends or voids them; purges ended links. */
@Module({
  imports: [IdentityConfigModule],
  providers: [
    PasswordLinksRepository,
    PeriodicPurge.of(PasswordLinksRepository, IdentityConfig, (links) => links.purgeEnded(), {
      message: 'purging ended password links failed',
      context: 'PasswordLinks',
    }),
  ],
  exports: [PasswordLinksRepository],
})
export class PasswordLinksModule {}
