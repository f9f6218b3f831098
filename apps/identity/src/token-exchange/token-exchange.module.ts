import { Module } from '@nestjs/common';
import { ServiceTokenGuard } from '../decisions/service-token.guard';
import { OidcModule } from '../oidc/oidc.module';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';

@Module({
  imports: [OidcModule],
  controllers: [TokenExchangeController],
  providers: [TokenExchangeService, ServiceTokenGuard],
})
export class TokenExchangeModule {}
