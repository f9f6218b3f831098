import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEnum, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { KeyClass } from './key-class';
import { PageQueryDto } from '../pagination';
import { IsDisplayText } from '../validation';

export const REGISTRY_ID_PATTERN = /^reg_[0-9a-z]{20}$/;

export class CreateKeyRequestDto {
  @ApiProperty({ example: 'Acme partner key', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @IsDisplayText()
  name!: string;

  @ApiProperty({ enum: KeyClass, enumName: 'KeyClass' })
  @IsEnum(KeyClass, { message: `class must be one of: ${Object.values(KeyClass).join(', ')}` })
  class!: KeyClass;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for app keys: the organization the key acts for' })
  @IsOptional()
  @IsUUID()
  organizationId?: string;

  @ApiPropertyOptional({ type: [String], description: 'Registries an app key may use from the start' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(REGISTRY_ID_PATTERN, { each: true, message: 'each registry id must look like reg_…' })
  allowedRegistryIds?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 3 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  maxApps?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Makes the key an agent's (AGT-1), supervised by this person: a live unified user's uid. Only for app keys. " +
      "The agent acts in the key's organization as an app key would, every formal action is denied it (`agent_delegated`), " +
      'and everything it does is recorded with actor kind `agent` and this supervisor.',
  })
  @IsOptional()
  @IsUUID()
  agentSupervisorId?: string;
}

/** What marks a key as an agent's: the person accountable for what it does. */
export class KeyAgentDto {
  @ApiProperty({
    format: 'uuid',
    description: "The supervisor's uid; when the person named was merged since, the uid they were merged into",
  })
  supervisorId!: string;
}

export class RotateKeyRequestDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 2592000, description: 'How long the old secret keeps working (default from config)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2592000)
  gracePeriodSeconds?: number;
}

export class KeyListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: KeyClass })
  @IsOptional()
  @IsIn(Object.values(KeyClass))
  class?: KeyClass;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: KeyClass, enumName: 'KeyClass' }) class!: KeyClass;
  @ApiProperty({ description: 'Public prefix of the current secret, safe to log', example: 'k7f3a9c2d1' }) prefix!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) organizationId!: string | null;
  @ApiProperty({ type: [String] }) allowedRegistryIds!: string[];
  @ApiProperty() maxApps!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) rotatedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Until when the previous secret still works' })
  previousSecretExpiresAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revokedAt!: string | null;
  @ApiProperty({ type: () => KeyAgentDto, nullable: true, description: "Set when the key is an agent's: who supervises it" })
  agent!: KeyAgentDto | null;
}

export class IssuedKeyDto {
  @ApiProperty({ type: () => ApiKeyDto }) key!: ApiKeyDto;
  @ApiProperty({ description: 'The key itself, shown this once: `Authorization: Bearer <secret>`' }) secret!: string;
}
