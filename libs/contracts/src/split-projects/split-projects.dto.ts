import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsUUID, Length, Matches, ValidateNested } from 'class-validator';
import { IsDisplayText, IsStoredInteger } from '../validation';

export const ORGANIZATION_HEADER = 'X-Organization-Id';

export class NewScenarioDto {
  @ApiProperty({ maxLength: 200, example: 'Baseline' })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  name!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Scenario content (currency, periods, participants, tiers), validated by the split engine; errors are located by JSON Pointer',
  })
  @IsObject()
  content!: Record<string, unknown>;
}

export class CreateSplitProjectRequestDto {
  @ApiProperty({ maxLength: 200, example: 'Studio revenue share 2026' })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  name!: string;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217; the scenario content must use the same currency' })
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code like EUR' })
  currency!: string;

  @ApiProperty({ example: '2.0', description: 'A split template version of the registry' })
  @Matches(/^[0-9]+\.[0-9]+$/, { message: 'templateVersion must look like 2.0' })
  templateVersion!: string;

  @ApiProperty({ type: () => NewScenarioDto, description: 'The first operating scenario, created with the project' })
  @IsObject()
  @ValidateNested()
  @Type(() => NewScenarioDto)
  scenario!: NewScenarioDto;
}

export class BranchScenarioRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  fromScenarioId!: string;

  @ApiPropertyOptional({ minimum: 1, description: 'Default: the current revision' })
  @IsOptional()
  @IsStoredInteger()
  fromRevision?: number;

  @ApiProperty({ maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @IsDisplayText()
  name!: string;
}

export class BranchOriginDto {
  @ApiProperty({ format: 'uuid' }) scenarioId!: string;
  @ApiProperty() revision!: number;
}

export class OperatingScenarioDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The revision shown (the current one unless ?revision= asked for another)' }) revision!: number;
  @ApiProperty({ description: 'The latest revision' }) currentRevision!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) content!: Record<string, unknown>;
  @ApiProperty({ example: 'sha256:…', description: 'Digest of the split rules (currency, participants, tiers)' }) rulesDigest!: string;
  @ApiProperty({ type: () => BranchOriginDto, nullable: true }) branchedFrom!: BranchOriginDto | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'When the revision shown was made' }) revisedAt!: string;
}

/** One entry of a scenario's revision history. */
export class ScenarioRevisionDto {
  @ApiProperty() revision!: number;
  @ApiProperty({ example: 'sha256:…', description: 'Digest of the split rules (currency, participants, tiers)' }) rulesDigest!: string;
  @ApiProperty({ description: 'Who made it: `<subject kind>:<id>`' }) createdBy!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class SplitProjectDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() currency!: string;
  @ApiProperty() templateVersion!: string;
  @ApiProperty({ description: "Who created it: `<subject kind>:<id>`; an agent's as `agent:<id> supervised by human:<uid>`" })
  createdBy!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** A discarded draft: what it was, who discarded it and when (a discard repeated answers the first one's). */
export class DiscardedSplitProjectDto extends SplitProjectDto {
  @ApiProperty({ format: 'date-time' }) discardedAt!: string;
  @ApiProperty({ description: 'Who discarded it, as `createdBy` names a creator' }) discardedBy!: string;
}

export class CreatedSplitProjectDto {
  @ApiProperty({ type: () => SplitProjectDto }) project!: SplitProjectDto;
  @ApiProperty({ type: () => OperatingScenarioDto }) scenario!: OperatingScenarioDto;
}
