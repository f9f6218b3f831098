import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { EventHandoverController } from './event-handover.controller';

/** The service route where standards-api hands over its events: above the outbox and the service credential check. */
@Module({
  imports: [CallersModule, EventsModule],
  controllers: [EventHandoverController],
})
export class EventHandoverModule {}
