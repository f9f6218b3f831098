import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { PageQueryDto } from '../registry/registry-query.dto';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PARTNER_EVENT_TYPES, type PartnerEventType } from './event-types';

const SUBSCRIBABLE = PARTNER_EVENT_TYPES.filter((type) => type !== 'webhook.test');

export class CreateWebhookEndpointRequestDto {
  @ApiProperty({ example: 'https://partner.example/webhooks/stdreg', maxLength: 2000 })
  @IsString()
  @Length(1, 2000)
  url!: string;

  @ApiProperty({ enum: SUBSCRIBABLE, isArray: true, description: 'The event types this endpoint receives, of both services' })
  @IsArray()
  @ArrayMinSize(1, { message: 'eventTypes must list at least one event type' })
  @ArrayMaxSize(PARTNER_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true, message: `each event type must be one of: ${SUBSCRIBABLE.join(', ')}` })
  eventTypes!: PartnerEventType[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Platform keys only: the organization the endpoint is for (an app key's is its own)",
  })
  @IsOptional()
  @IsUUID()
  organizationId?: string;
}

/** Any of the endpoint's fields; `enabled: true` also re-enables an endpoint the platform disabled after failures. */
export class UpdateWebhookEndpointRequestDto extends PartialType(OmitType(CreateWebhookEndpointRequestDto, ['organizationId'] as const)) {}

export class RotateWebhookSecretRequestDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 604800,
    default: 86400,
    description: 'How long the previous secret keeps signing beside the new one',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(604800)
  overlapSeconds?: number;
}

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled', 'failing_disabled', 'deleted'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: SUBSCRIBABLE, isArray: true }) eventTypes!: PartnerEventType[];
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    enum: WEBHOOK_ENDPOINT_STATUSES,
    description:
      '`failing_disabled`: the platform stopped it because of its answers (every attempt of a delivery failed, or it answered 410 Gone; an `endpoint.disabled` event says so, `disabledReason` says which); `deleted`: removed (seen only by platform keys, until the audit period ends)',
  })
  status!: WebhookEndpointStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why the platform stopped it (with `failing_disabled`)' })
  disabledReason!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When it was removed (platform keys only see removed endpoints)',
  })
  deletedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Until when the previous secret still signs' })
  previousSecretExpiresAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class WebhookEndpointWithSecretDto {
  @ApiProperty({ type: WebhookEndpointDto }) endpoint!: WebhookEndpointDto;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret, shown only here' })
  secret!: string;
}

/** `dropped`: still pending when its endpoint was removed, so never sent again. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dropped'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export class WebhookDeliveryDto {
  @ApiProperty({ description: 'The webhook-id header, the same on every attempt' }) id!: string;
  @ApiProperty({ format: 'uuid' }) endpointId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty({ enum: PARTNER_EVENT_TYPES }) eventType!: PartnerEventType;
  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES }) status!: WebhookDeliveryStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true }) responseStatus!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The start of the last response body (truncated)' })
  responseBody!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) lastAttemptAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description:
      'Pending only: when the next attempt is due, never before `lastAttemptAt` (while an attempt is on the wire: when another dispatcher may take it over)',
  })
  nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class WebhookDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;
}

export class RecoverWebhookDeliveriesRequestDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-20T08:00:00Z',
    description: 'Send again every failed delivery created at or after this time (not in the future, at most 30 days ago)',
  })
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since!: string;
}

export class RecoverWebhookDeliveriesResponseDto {
  @ApiProperty({ description: 'Failed deliveries queued again, oldest first, each under its original webhook-id' })
  queued!: number;
  @ApiProperty({ description: 'Deliveries since then that were waiting for a retry, now due at once' })
  broughtForward!: number;
}
