import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { REGISTRY_ID_PATTERN } from './keys.dto';
import { PageQueryDto } from '../pagination';
import { IsDisplayText, NormalizedToNfc } from '../validation';

export const USER_LOCALES = ['en', 'zh-Hans'] as const;
export const MAX_SYNC_RECORDS = 1000;
const EXTERNAL_ID = /^[\x21-\x7e]{1,200}$/;

/** The fields of one mirrored user, as a partner app knows them. */
export class UserFieldsDto {
  @ApiProperty({ example: 'user-8812', description: "The partner's own id for the user" })
  @IsString()
  @Matches(EXTERNAL_ID, { message: 'externalId must be 1-200 printable characters without spaces' })
  externalId!: string;

  @ApiProperty({ format: 'idn-email' })
  @NormalizedToNfc()
  @IsEmail({}, { message: 'email must be an email address' })
  @Length(3, 254)
  email!: string;

  @ApiProperty()
  @IsBoolean()
  emailVerified!: boolean;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  displayName!: string;

  @ApiProperty({ enum: USER_LOCALES })
  @IsIn(USER_LOCALES, { message: `locale must be one of: ${USER_LOCALES.join(', ')}` })
  locale!: string;
}

export class CreateUserRequestDto extends UserFieldsDto {
  @ApiProperty({ example: 'reg_0k3n5b2x9q1m4v7c8z6w' })
  @Matches(REGISTRY_ID_PATTERN, { message: 'registryId must look like reg_…' })
  registryId!: string;
}

export class UpdateUserRequestDto {
  @ApiPropertyOptional({ format: 'idn-email' }) @NormalizedToNfc() @IsOptional() @IsEmail() @Length(3, 254) email?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() emailVerified?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 200) @IsDisplayText() displayName?: string;
  @ApiPropertyOptional({ enum: USER_LOCALES }) @IsOptional() @IsIn(USER_LOCALES) locale?: string;
}

export class UserListQueryDto extends PageQueryDto {
  @ApiProperty({ description: 'A registry the key is bound to' })
  @Matches(REGISTRY_ID_PATTERN, { message: 'registryId must look like reg_…' })
  registryId!: string;

  @ApiPropertyOptional({ format: 'idn-email', description: 'Exact match, case-insensitive' })
  @NormalizedToNfc()
  @IsOptional()
  @IsEmail()
  email?: string;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() registryId!: string;
  @ApiProperty() externalId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() emailVerified!: boolean;
  @ApiProperty() displayName!: string;
  @ApiProperty({ enum: USER_LOCALES }) locale!: string;
  @ApiProperty({ format: 'uuid', description: 'The unified user this record is linked to' }) uid!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class SyncRequestDto {
  @ApiProperty()
  @Matches(REGISTRY_ID_PATTERN, { message: 'registryId must look like reg_…' })
  registryId!: string;

  @ApiPropertyOptional({ default: false, description: 'All records or none: one rejected record rejects the batch' })
  @IsOptional()
  @IsBoolean()
  atomic?: boolean;

  @ApiProperty({
    type: 'array',
    maxItems: MAX_SYNC_RECORDS,
    items: { $ref: '#/components/schemas/SyncRecordDto' },
    description: 'Each record is validated on its own; a bad one is rejected with its reason',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SYNC_RECORDS, { message: `records must have at most ${MAX_SYNC_RECORDS} entries` })
  @IsObject({ each: true, message: 'each record must be an object' })
  records!: Record<string, unknown>[];
}

export class SyncRecordDto extends UserFieldsDto {
  @ApiPropertyOptional({ description: 'true removes the mirror record (the unified user stays while other links exist)' })
  @IsOptional()
  @IsBoolean()
  deleted?: boolean;
}

export const SYNC_OUTCOMES = ['created', 'updated', 'unchanged', 'deleted', 'rejected'] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

export class SyncRecordResultDto {
  @ApiProperty() index!: number;
  @ApiProperty({ type: String, nullable: true }) externalId!: string | null;
  @ApiProperty({ enum: SYNC_OUTCOMES }) outcome!: SyncOutcome;
  @ApiPropertyOptional({ format: 'uuid' }) uid?: string;
  @ApiPropertyOptional() reason?: string;
}

export class SyncCountsDto {
  @ApiProperty() created!: number;
  @ApiProperty() updated!: number;
  @ApiProperty() unchanged!: number;
  @ApiProperty() deleted!: number;
  @ApiProperty() rejected!: number;
}

export class SyncResultDto {
  @ApiProperty() registryId!: string;
  @ApiProperty({ description: 'false when the batch was atomic and a record was rejected: nothing was written' }) applied!: boolean;
  @ApiProperty({ description: 'false when the batch changed nothing (e.g. the same batch again)' }) changed!: boolean;
  @ApiProperty({ type: () => SyncCountsDto }) counts!: SyncCountsDto;
  @ApiProperty({ type: () => [SyncRecordResultDto] }) results!: SyncRecordResultDto[];
}
