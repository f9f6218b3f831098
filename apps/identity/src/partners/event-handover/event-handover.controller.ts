import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { EventHandoverRequestDto, EventHandoverResultDto } from '@stdreg/contracts';
import { ServiceAuth } from '../../access/callers/caller.decorators';
import { PartnerEventsService } from '../../platform/outbox/events.service';

/** Where standards-api hands over its outbox's events: a service route, not part of the partner API. */
@ApiExcludeController()
@ServiceAuth('event-handover')
@Controller('events')
export class EventHandoverController {
  constructor(private readonly events: PartnerEventsService) {}

  @Post('handover')
  @HttpCode(200)
  handover(@Body() body: EventHandoverRequestDto): Promise<EventHandoverResultDto> {
    return this.events.handover(body.events);
  }
}
