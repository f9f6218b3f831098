import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/**
 * Idempotency-Key for a feature with protected writes: it imports this module and puts `@IdempotentWrites()`
 * on its controller. Nest builds a controller's interceptor in the controller's own module, so what the
 * interceptor needs is exported. Not an app-wide interceptor: Nest would then run every request, the
 * registry's anonymous reads among them, through an RxJS chain for an interceptor that acts only on
 * protected POSTs (docs/decisions.md, issue 30).
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyService],
  exports: [IdempotencyRepository, IdempotencyService],
})
export class IdempotencyModule {}
