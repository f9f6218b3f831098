import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { OidcModule } from '../oidc/oidc.module';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

@Module({
  imports: [IdentityConfigModule, CallersModule, OidcModule, AuditModule],
  controllers: [TokenExchangeController],
  providers: [TokenExchangeService],
})
export class TokenExchangeModule {}
