import { Module } from '@nestjs/common';
import { IdentityConfig } from '../config/identity.config';
import { TokenSubjectLeases } from './token-subject-leases';

/** The leases decisions rely on that writes in other features must outlast. */
@Module({
  providers: [
    {
      provide: TokenSubjectLeases,
      useFactory: (config: IdentityConfig) => new TokenSubjectLeases(config.TOKEN_SUBJECT_LEASE_MS),
      inject: [IdentityConfig],
    },
  ],
  exports: [TokenSubjectLeases],
})
export class LeasesModule {}
