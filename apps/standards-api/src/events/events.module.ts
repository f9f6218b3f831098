import { Module } from '@nestjs/common';
import { PeriodicPurge } from '@stdreg/server-kit';
import { EventRelay } from './event-relay';
import { EventsRepository } from './events.repository';
import { PartnerEventsService } from './events.service';
import { StandardsApiConfig } from '../config/standards-api.config';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';

/** An event identity has had this long is purged from standards-api's outbox. */
const HANDED_OVER_EVENT_DAYS = 1;

/** standards-api's outbox, the relay that hands it to identity, and the purge of what identity has. */
@Module({
  imports: [StandardsApiConfigModule],
  providers: [
    EventsRepository,
    PartnerEventsService,
    EventRelay,
    PeriodicPurge.of(EventsRepository, StandardsApiConfig, (outbox) => outbox.purgeHandedOver(HANDED_OVER_EVENT_DAYS), {
      message: 'purging handed-over events failed',
      context: 'EventRelay',
    }),
  ],
  exports: [PartnerEventsService],
})
export class EventsModule {}
