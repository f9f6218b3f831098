import { Module } from '@nestjs/common';
import { EventRelay } from './event-relay';
import { EventsRepository } from './events.repository';
import { PartnerEventsService } from './events.service';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';

/** standards-api's outbox, and the relay that hands it to identity. */
@Module({
  imports: [StandardsApiConfigModule],
  providers: [EventsRepository, PartnerEventsService, EventRelay],
  exports: [PartnerEventsService],
})
export class EventsModule {}
