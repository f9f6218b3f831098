import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { PageQueryDto } from '../pagination';
import { IsRealDateTime } from '../validation';

export const AUDIT_OUTCOMES = ['success', 'denied', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
/** `agent`: an agent client or an agent's key; its entry's detail names its `supervisor`. */
export const ACTOR_KINDS = ['app_key', 'platform_key', 'human', 'agent', 'service', 'anonymous', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'An actorId: key prefix, uid, OIDC client id, service name…' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  actor?: string;
  @ApiPropertyOptional({ example: 'apps.register' }) @IsOptional() @IsString() @Length(1, 100) action?: string;
  @ApiPropertyOptional({
    description: "What the entry acted on: a grant's id (its tokens issued, refreshed, exchanged, revoked), a client id, a uid, a key id…",
  })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  target?: string;
  @ApiPropertyOptional({ enum: AUDIT_OUTCOMES }) @IsOptional() @IsIn(AUDIT_OUTCOMES) outcome?: AuditOutcome;
  @ApiPropertyOptional({
    format: 'uuid',
    description: "The organization an entry concerns. An app key reads its own organization's entries only, with or without this filter.",
  })
  @IsOptional()
  @IsUUID()
  organization?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this time' }) @IsOptional() @IsRealDateTime() from?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Entries at or before this time, to the millisecond: an entry whose `at` shows this time is included',
  })
  @IsOptional()
  @IsRealDateTime()
  to?: string;
}

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ enum: ACTOR_KINDS }) actorKind!: ActorKind;
  @ApiProperty({
    description:
      'Key prefix, uid, OIDC client id (an agent client; a client acting for no person), service name, a part of identity ' +
      '(`system`, such as `sign-in` or `webhooks`), or client IP for anonymous calls',
  })
  actorId!: string;
  @ApiProperty({ example: 'apps.register' }) action!: string;
  @ApiProperty({ type: String, nullable: true }) target!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "The organization the entry concerns (its keys, apps, users, webhooks, roles, decisions on its resources); null for a person's " +
      'sign-in and tokens, merges, the waitlist before approval and platform key uses',
  })
  organizationId!: string | null;
  @ApiProperty({ enum: AUDIT_OUTCOMES }) outcome!: AuditOutcome;
  @ApiProperty({ type: 'object', additionalProperties: true }) detail!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) requestId!: string | null;
}
