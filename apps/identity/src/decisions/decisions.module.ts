import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { KeysModule } from '../keys/keys.module';
import { OidcModule } from '../oidc/oidc.module';
import { DecisionsController } from './decisions.controller';
import { DecisionsService } from './decisions.service';
import { RefusalTally } from './refusal-tally';
import { ServiceTokenGuard } from './service-token.guard';

@Module({
  imports: [AuditModule, KeysModule, OidcModule],
  controllers: [DecisionsController],
  providers: [DecisionsService, ServiceTokenGuard, { provide: RefusalTally, useFactory: () => new RefusalTally() }],
})
export class DecisionsModule {}
