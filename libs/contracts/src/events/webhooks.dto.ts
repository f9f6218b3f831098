import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { PageQueryDto } from '../pagination';
import { IsDisplayText, IsRealDateTime } from '../validation';
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

// What identity checks of an endpoint URL (apps/identity/src/platform/outbound/address-policy.ts, docs/decisions.md issue 27).
const WEBHOOK_URL_DESCRIPTION =
  'An https URL (http only to loopback, where the deployment allows loopback) without credentials or fragment, reaching public addresses only. ' +
  'Checked at registration and on a change of `url` (a 400 `webhooks.url_refused` names the address and its range), and again on every connection, ' +
  'against every address the name resolves to: one refused address refuses the name. Loopback and private networks (RFC 1918, unique-local fc00::/7) only ' +
  'where the deployment allows them. Never: link-local (169.254.0.0/16, fe80::/10) and cloud metadata (169.254.169.254, fd00:ec2::254), 0.0.0.0/8, ' +
  '100.64.0.0/10, 192.0.0.0/24, 198.18.0.0/15, documentation ranges, multicast, 240.0.0.0/4, broadcast, every other block of the IANA IPv4 and IPv6 ' +
  'special-purpose registries, and IPv6 outside 2000::/3. An address is judged by the IPv4 address it carries, however spelled: numeric IPv4 ' +
  '(`2852039166`, `0xa9fea9fe`, `0251.0376.0251.0376`, `169.254.43518`) and IPv4-mapped `::ffff:a.b.c.d` as that IPv4 address; NAT64 `64:ff9b::/96`, ' +
  '6to4 `2002::/16`, Teredo `2001::/32` (server and client) and ISATAP only when every IPv4 address carried is public; IPv4-compatible `::a.b.c.d`, ' +
  'SIIT `::ffff:0:a.b.c.d` and NAT64 local-use `64:ff9b:1::/48` never.';

export class CreateWebhookEndpointRequestDto {
  @ApiProperty({ example: 'https://partner.example/webhooks/stdreg', maxLength: 2000, description: WEBHOOK_URL_DESCRIPTION })
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
  @IsDisplayText({ lines: true })
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
    description:
      'When it stopped receiving events (disabled by its organization or by the platform); null while enabled. Events of the time it is disabled are kept as failed deliveries, which `recover` sends once it is enabled again',
  })
  disabledAt!: string | null;
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
    description:
      'Send again every failed delivery created at or after this time (an RFC 3339 date-time with a time zone, not in the future, at most 30 days ago)',
  })
  @IsRealDateTime()
  since!: string;
}

export class RecoverWebhookDeliveriesResponseDto {
  @ApiProperty({ description: 'Failed deliveries queued again, oldest first, each under its original webhook-id' })
  queued!: number;
  @ApiProperty({ description: 'Deliveries since then that were waiting for a retry, now due at once' })
  broughtForward!: number;
}
