import { Module } from '@nestjs/common';
import { DecisionsController } from './decisions.controller';
import { DecisionsService } from './decisions.service';
import { RefusalTally } from './refusal-tally';
import { ServiceTokenGuard } from './service-token.guard';

@Module({
  controllers: [DecisionsController],
  providers: [DecisionsService, ServiceTokenGuard, { provide: RefusalTally, useFactory: () => new RefusalTally() }],
})
export class DecisionsModule {}
