import { Module } from '@nestjs/common';
import { PeriodicPurge } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** How long an Idempotency-Key is remembered: a request sent again later is a new request (as Stripe's keys). */
export const IDEMPOTENCY_KEY_HOURS = 24;

/**
 * Idempotency-Key for a feature with protected writes: it imports this module and puts `@IdempotentWrites()`
 * on its controller. Nest builds a controller's interceptor in the controller's own module, so what the
 * interceptor needs is exported. Not an app-wide interceptor: Nest would then run every request, the
 * registry's anonymous reads among them, through an RxJS chain for an interceptor that acts only on
 * protected POSTs (docs/decisions.md, issue 30). Purges the records of keys older than IDEMPOTENCY_KEY_HOURS.
 */
@Module({
  imports: [StandardsApiConfigModule],
  providers: [
    IdempotencyRepository,
    IdempotencyService,
    PeriodicPurge.of(IdempotencyRepository, StandardsApiConfig, (records) => records.purgeOlderThan(IDEMPOTENCY_KEY_HOURS), {
      message: 'purging old idempotency records failed',
      context: 'Idempotency',
    }),
  ],
  exports: [IdempotencyRepository, IdempotencyService],
})
export class IdempotencyModule {}
