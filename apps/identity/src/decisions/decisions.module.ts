import { Module } from '@nestjs/common';
import { DecisionsController } from './decisions.controller';
import { DecisionsService } from './decisions.service';
import { ServiceTokenGuard } from './service-token.guard';

@Module({ controllers: [DecisionsController], providers: [DecisionsService, ServiceTokenGuard] })
export class DecisionsModule {}
