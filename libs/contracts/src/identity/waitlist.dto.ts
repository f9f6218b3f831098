import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { IssuedKeyDto } from './keys.dto';
import { PageQueryDto } from '../pagination';
import { IsDisplayText } from '../validation';

export const WAITLIST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export class CreateWaitlistRequestDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  organizationName!: string;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  contactName!: string;

  @ApiProperty({ format: 'idn-email', maxLength: 254 })
  @IsEmail()
  @Length(3, 254)
  contactEmail!: string;

  @ApiProperty({ maxLength: 2000, description: 'What the organization wants to build' })
  @IsString()
  @Length(1, 2000)
  @IsDisplayText({ lines: true })
  useCase!: string;
}

export class WaitlistListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WAITLIST_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(WAITLIST_STATUSES)
  status?: WaitlistStatus;
}

export class ApproveWaitlistRequestDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'An existing organization; default: a new one named as requested' })
  @IsOptional()
  @IsUUID()
  organizationId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  maxApps?: number;
}

export class RejectWaitlistRequestDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

export class WaitlistRequestDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() organizationName!: string;
  @ApiProperty() contactName!: string;
  @ApiProperty() contactEmail!: string;
  @ApiProperty() useCase!: string;
  @ApiProperty({ enum: WAITLIST_STATUSES }) status!: WaitlistStatus;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) decidedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) decisionReason!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The key issued on approval' }) issuedKeyId!: string | null;
}

export class WaitlistApprovalDto {
  @ApiProperty({ type: () => WaitlistRequestDto }) request!: WaitlistRequestDto;
  @ApiProperty({ type: () => IssuedKeyDto }) issued!: IssuedKeyDto;
}
