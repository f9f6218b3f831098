import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { EventHandoverRequestDto, EventHandoverResultDto } from '@stdreg/contracts';
import { ServiceTokenGuard, type RequestWithService } from '../decisions/service-token.guard';
import { PartnerEventsService } from '../events/events.service';

/** Where standards-api hands over its outbox's events: a service route, not part of the partner API. */
@ApiExcludeController()
@UseGuards(ServiceTokenGuard)
@Controller('events')
export class EventHandoverController {
  constructor(private readonly events: PartnerEventsService) {}

  @Post('handover')
  @HttpCode(200)
  handover(@Body() body: EventHandoverRequestDto, @Req() request: RequestWithService): Promise<EventHandoverResultDto> {
    return this.events.handover(body.events, request.serviceName!);
  }
}
