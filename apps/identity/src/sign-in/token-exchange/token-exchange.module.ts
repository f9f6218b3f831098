import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { OidcModule } from '../oidc/oidc.module';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';

@Module({
  imports: [CallersModule, OidcModule],
  controllers: [TokenExchangeController],
  providers: [TokenExchangeService],
})
export class TokenExchangeModule {}
