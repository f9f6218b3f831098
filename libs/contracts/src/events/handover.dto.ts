import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateNested } from 'class-validator';
import { MAX_CREDENTIAL_LENGTH } from '../identity/decisions.dto';
import { IsRealDateTime } from '../validation';
import { EVENT_ACTOR_KINDS, type EventActorKind, STANDARDS_EVENT_TYPES, type StandardsEventType } from './event-types';

export const MAX_HANDOVER_EVENTS = 200;

export class HandedOverActorDto {
  @ApiProperty({ enum: EVENT_ACTOR_KINDS }) @IsIn(EVENT_ACTOR_KINDS) kind!: EventActorKind;
  /**
   * An agent acting through a token is its client id, which a metadata document's URL may make long; its credential
   * carries it, so it is no longer than a credential. Any event refused here would hold up every event after it.
   */
  @ApiProperty({ maxLength: MAX_CREDENTIAL_LENGTH })
  @IsString()
  @Length(1, MAX_CREDENTIAL_LENGTH)
  id!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 200) supervisor?: string;
}

/** One event of standards-api's outbox, as it hands it to identity (which delivers it). */
export class HandedOverEventDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() id!: string;
  @ApiProperty({ enum: STANDARDS_EVENT_TYPES }) @IsIn(STANDARDS_EVENT_TYPES) type!: StandardsEventType;
  @ApiProperty({ format: 'uuid' }) @IsUUID() organizationId!: string;
  @ApiProperty() @IsString() @Length(1, 300) resource!: string;
  @ApiProperty({ type: HandedOverActorDto }) @ValidateNested() @Type(() => HandedOverActorDto) actor!: HandedOverActorDto;
  @ApiProperty() @Type(() => Number) @IsInt() @Min(1) @Max(1000) version!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsObject() data!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) @IsRealDateTime() occurredAt!: string;
}

/** A batch of standards-api's events in outbox order; identity keeps each id once, so a batch sent again changes nothing. */
export class EventHandoverRequestDto {
  @ApiProperty({ type: [HandedOverEventDto], maxItems: MAX_HANDOVER_EVENTS })
  @ArrayMaxSize(MAX_HANDOVER_EVENTS)
  @ValidateNested({ each: true })
  @Type(() => HandedOverEventDto)
  events!: HandedOverEventDto[];
}

export class EventHandoverResultDto {
  @ApiProperty({ description: 'How many of the events were new to identity' }) accepted!: number;
}
