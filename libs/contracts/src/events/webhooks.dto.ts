import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { PageQueryDto } from '../pagination';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
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

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled', 'failing_disabled'] as const;
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
    description: '`failing_disabled`: the platform stopped it after deliveries kept failing (an `endpoint.disabled` event says so)',
  })
  status!: WebhookEndpointStatus;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Until when the previous secret still signs' })
  previousSecretExpiresAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class WebhookEndpointWithSecretDto {
  @ApiProperty({ type: WebhookEndpointDto }) endpoint!: WebhookEndpointDto;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret, shown only here' })
  secret!: string;
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
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
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class WebhookDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;
}
