import { Global, Module } from '@nestjs/common';
import { AuthorizationClient, authorizationClientProviders } from '@stdreg/authz-client';
import { StandardsApiConfig } from '../config/standards-api.config';
import { AuthorizationGuard } from './authorization.guard';

@Global()
@Module({
  providers: [...authorizationClientProviders(StandardsApiConfig), AuthorizationGuard],
  exports: [AuthorizationClient, AuthorizationGuard],
})
export class AuthorizationModule {}
