import { Module } from '@nestjs/common';
import { AuthorizationClient, authorizationClientProviders } from '@stdreg/authz-client';
import { StandardsApiConfig } from '../config/standards-api.config';
import { CallerGuard } from './caller.guard';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';

/**
 * Who is calling, for every kind of caller: a feature with a keyed route imports this module and puts
 * `@Authorize(action)` on the route. Nest builds a route's guard in the controller's own module, so the
 * guard's client is exported with it.
 */
@Module({
  imports: [StandardsApiConfigModule],
  providers: [...authorizationClientProviders(StandardsApiConfig), CallerGuard],
  exports: [CallerGuard, AuthorizationClient],
})
export class CallersModule {}
