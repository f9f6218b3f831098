import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiPage,
  CreateWebhookEndpointRequestDto,
  PageQueryDto,
  RecoverWebhookDeliveriesRequestDto,
  RecoverWebhookDeliveriesResponseDto,
  RotateWebhookSecretRequestDto,
  UpdateWebhookEndpointRequestDto,
  WebhookDeliveryDto,
  WebhookDeliveryQueryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
  ProblemDetailsDto,
} from '@stdreg/contracts';
import { type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { AgentKeyRefused, KeyAuth } from '../../access/callers/caller.decorators';
import { agentKeyRefused } from './webhooks.errors';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@KeyAuth()
@Controller('webhook-endpoints')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @AgentKeyRefused(agentKeyRefused)
  @ApiForbiddenResponse({
    description: "An agent's key (webhooks.agent_key_refused), or another organization's (webhooks.organization_not_own)",
    type: ProblemDetailsDto,
  })
  @ApiConflictResponse({
    description: 'The organization has as many endpoints as it may (webhooks.limit_reached)',
    type: ProblemDetailsDto,
  })
  @ApiUnprocessableEntityResponse({ description: 'No such organization (webhooks.organization_unknown)', type: ProblemDetailsDto })
  @ApiOperation({ summary: "Register an endpoint for the organization's events of both services (the signing secret is shown once)" })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto })
  create(@Body() body: CreateWebhookEndpointRequestDto, @Caller() caller: KeyCaller): Promise<WebhookEndpointWithSecretDto> {
    return this.webhooks.create(body, caller);
  }

  @Get()
  @ApiOperation({ summary: "The organization's endpoints (every organization's for a platform key)" })
  @ApiPage(WebhookEndpointDto)
  list(@Query() query: PageQueryDto, @Caller() caller: KeyCaller): Promise<{ items: WebhookEndpointDto[]; nextCursor: string | null }> {
    return this.webhooks.list(caller, query);
  }

  @Get(':endpointId')
  @ApiOkResponse({ type: WebhookEndpointDto })
  get(@Param('endpointId', ParseUUIDPipe) endpointId: string, @Caller() caller: KeyCaller): Promise<WebhookEndpointDto> {
    return this.webhooks.get(endpointId, caller);
  }

  @Patch(':endpointId')
  @AgentKeyRefused(agentKeyRefused)
  @ApiForbiddenResponse({ description: "An agent's key (webhooks.agent_key_refused)", type: ProblemDetailsDto })
  @ApiOperation({ summary: 'Change the URL, event types, description, or enable/disable (enabling clears a disable for failures)' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  update(
    @Param('endpointId', ParseUUIDPipe) endpointId: string,
    @Body() body: UpdateWebhookEndpointRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.update(endpointId, body, caller);
  }

  @Delete(':endpointId')
  @AgentKeyRefused(agentKeyRefused)
  @ApiForbiddenResponse({ description: "An agent's key (webhooks.agent_key_refused)", type: ProblemDetailsDto })
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Remove the endpoint: nothing more is sent to it, its pending deliveries are dropped; platform keys can still read it and its deliveries for 90 days',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  remove(@Param('endpointId', ParseUUIDPipe) endpointId: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.webhooks.remove(endpointId, caller);
  }

  @Post(':endpointId/rotate-secret')
  @AgentKeyRefused(agentKeyRefused)
  @ApiForbiddenResponse({ description: "An agent's key (webhooks.agent_key_refused)", type: ProblemDetailsDto })
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret (shown once); the previous one signs beside it for overlapSeconds' })
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  rotateSecret(
    @Param('endpointId', ParseUUIDPipe) endpointId: string,
    @Body() body: RotateWebhookSecretRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.webhooks.rotateSecret(endpointId, body.overlapSeconds, caller);
  }

  @Post(':endpointId/test')
  @ApiConflictResponse({ description: 'The endpoint is disabled (webhooks.endpoint_not_enabled)', type: ProblemDetailsDto })
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a webhook.test event to this endpoint' })
  @ApiAcceptedResponse({ description: 'The test event is in the outbox; its delivery is listed with the others' })
  sendTest(@Param('endpointId', ParseUUIDPipe) endpointId: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.webhooks.sendTest(endpointId, caller);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({ summary: "The endpoint's deliveries: status, attempts, last response code and (truncated) body, times" })
  @ApiPage(WebhookDeliveryDto)
  deliveries(
    @Param('endpointId', ParseUUIDPipe) endpointId: string,
    @Query() query: WebhookDeliveryQueryDto,
    @Caller() caller: KeyCaller,
  ): Promise<{ items: WebhookDeliveryDto[]; nextCursor: string | null }> {
    return this.webhooks.deliveries(endpointId, query, caller);
  }

  @Post(':endpointId/deliveries/:deliveryId/replay')
  @ApiConflictResponse({ description: 'The endpoint is disabled (webhooks.endpoint_not_enabled)', type: ProblemDetailsDto })
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again, with the same webhook-id' })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto })
  replay(
    @Param('endpointId', ParseUUIDPipe) endpointId: string,
    @Param('deliveryId', ParseUUIDPipe) deliveryId: string,
    @Caller() caller: KeyCaller,
  ): Promise<WebhookDeliveryDto> {
    return this.webhooks.replay(endpointId, deliveryId, caller);
  }

  @Post(':endpointId/recover')
  @ApiConflictResponse({ description: 'The endpoint is disabled (webhooks.endpoint_not_enabled)', type: ProblemDetailsDto })
  @HttpCode(202)
  @ApiOperation({
    summary:
      'After an outage: send again every failed delivery created since `since` (at most 30 days ago), oldest first, under its original webhook-id; pending ones since then are due at once',
  })
  @ApiAcceptedResponse({ type: RecoverWebhookDeliveriesResponseDto })
  recover(
    @Param('endpointId', ParseUUIDPipe) endpointId: string,
    @Body() body: RecoverWebhookDeliveriesRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<RecoverWebhookDeliveriesResponseDto> {
    return this.webhooks.recover(endpointId, body.since, caller);
  }
}
