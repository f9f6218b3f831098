import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { OidcModule } from '../oidc/oidc.module';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

@Module({
  imports: [IdentityConfigModule, CallersModule, OidcModule],
  controllers: [TokenExchangeController],
  providers: [TokenExchangeService],
})
export class TokenExchangeModule {}
