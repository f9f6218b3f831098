import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID, Matches } from 'class-validator';
import { REGISTRY_ID_PATTERN } from './keys.dto';

/** The roles identity grants: the registry's stakeholder and operational roles. */
export const KNOWN_ROLES = [
  'project-owner',
  'revenue-participant',
  'investor',
  'legal-entity-representative',
  'partner-developer',
  'external-auditor',
  'platform-operator',
  'settlement-approver',
  'scenario-modeller',
  'compliance-officer',
  'finance-controller',
  'agent-supervisor',
] as const;

export class MergeUsersRequestDto {
  @ApiProperty({ format: 'uuid', description: 'Keeps its uid and receives everything' }) @IsUUID() survivorUid!: string;
  @ApiProperty({ format: 'uuid', description: 'Becomes an alias of the survivor; not the survivor itself (merge.into_itself)' })
  @IsUUID()
  mergedUid!: string;
}

export class MergeDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) survivorUid!: string;
  @ApiProperty({ format: 'uuid' }) mergedUid!: string;
  @ApiProperty({ format: 'date-time' }) mergedAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) unmergedAt!: string | null;
}

export class AppLinkRequestDto {
  @ApiProperty() @Matches(REGISTRY_ID_PATTERN, { message: 'registryId must look like reg_…' }) registryId!: string;
}

export class GrantRoleRequestDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() uid!: string;
  @ApiProperty({ enum: KNOWN_ROLES }) @IsIn(KNOWN_ROLES, { message: `role must be one of: ${KNOWN_ROLES.join(', ')}` }) role!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Scope; absent for a global role' }) @IsOptional() @IsUUID() organizationId?: string;
}

export class RoleBindingQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() uid!: string;
}

export class RoleBindingDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) uid!: string;
  @ApiProperty({ enum: KNOWN_ROLES }) role!: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) organizationId!: string | null;
  @ApiProperty({ format: 'date-time' }) grantedAt!: string;
}

export class AppLinkDto {
  @ApiProperty() registryId!: string;
  @ApiProperty({ enum: ['mirror', 'link'], description: 'Through a mirrored user record, or linked by an operator' }) via!:
    'mirror' | 'link';
}

export class UnifiedUserDto {
  @ApiProperty({ format: 'uuid' }) uid!: string;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty() emailVerified!: boolean;
  @ApiProperty({ type: String, nullable: true }) displayName!: string | null;
  @ApiProperty({ type: [String], format: 'uuid', description: 'uids merged into this user, which resolve to it' }) aliases!: string[];
  @ApiProperty({ type: () => [AppLinkDto] }) apps!: AppLinkDto[];
  @ApiProperty({ type: () => [RoleBindingDto] }) roles!: RoleBindingDto[];
}
