import { Module } from '@nestjs/common';
import { PeriodicPurge } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';
import { ConfirmationsRepository } from './confirmations.repository';
import { ConfirmationsService } from './confirmations.service';

/** A challenge is kept this long after it was spent or expired, then purged. */
const ENDED_CHALLENGE_DAYS = 1;

/** The two-step confirmation of formal writes; purges the challenges that ended. */
@Module({
  imports: [StandardsApiConfigModule],
  providers: [
    ConfirmationsRepository,
    ConfirmationsService,
    PeriodicPurge.of(ConfirmationsRepository, StandardsApiConfig, (challenges) => challenges.purgeEnded(ENDED_CHALLENGE_DAYS), {
      message: 'purging ended confirmation challenges failed',
      context: 'Confirmations',
    }),
  ],
  exports: [ConfirmationsService],
})
export class ConfirmationsModule {}
