import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { PartnerEventsService } from './events.service';

/** identity's outbox: its own events, written with their changes, and the events standards-api hands over. */
@Module({
  providers: [EventsRepository, PartnerEventsService],
  exports: [PartnerEventsService],
})
export class EventsModule {}
