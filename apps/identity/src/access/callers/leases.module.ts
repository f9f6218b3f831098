import { Module } from '@nestjs/common';
import { IdentityConfig } from '../../platform/config/identity.config';
import { KeyLeases } from './key-leases';
import { TokenSubjectLeases } from './token-subject-leases';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/** The leases decisions rely on, which every write that ends or changes a subject outlasts (SubjectChanges). */
@Module({
  imports: [IdentityConfigModule],
  providers: [
    { provide: KeyLeases, useFactory: (config: IdentityConfig) => new KeyLeases(config.KEY_LEASE_MS), inject: [IdentityConfig] },
    {
      provide: TokenSubjectLeases,
      useFactory: (config: IdentityConfig) => new TokenSubjectLeases(config.TOKEN_SUBJECT_LEASE_MS),
      inject: [IdentityConfig],
    },
  ],
  exports: [KeyLeases, TokenSubjectLeases],
})
export class LeasesModule {}
