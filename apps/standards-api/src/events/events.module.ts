import { Module } from '@nestjs/common';
import { EventRelay } from './event-relay';
import { EventsRepository } from './events.repository';
import { PartnerEventsService } from './events.service';

/** standards-api's outbox, and the relay that hands it to identity. */
@Module({
  providers: [EventsRepository, PartnerEventsService, EventRelay],
  exports: [PartnerEventsService],
})
export class EventsModule {}
