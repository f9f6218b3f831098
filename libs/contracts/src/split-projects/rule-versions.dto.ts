import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { ProblemDetailsDto } from '../errors';
import { IsRealDateTime, IsStoredInteger } from '../validation';
import { LocalizedTextDto } from '../registry/localized.dto';

export class ActivateSplitProjectRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The operating scenario of this project whose rules become Rule Version 1' })
  @IsUUID()
  scenarioId!: string;

  @ApiPropertyOptional({ minimum: 1, description: "Default: the current revision; when given it must be the scenario's current revision" })
  @IsOptional()
  @IsStoredInteger()
  revision?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the rules take effect; default: now (the time of the challenge)' })
  @IsOptional()
  @IsRealDateTime()
  effectiveFrom?: string;

  @ApiPropertyOptional({ description: 'The single-use token of the 428 challenge; without it the call only answers the challenge' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  confirmationToken?: string;
}

export class CreateRuleVersionRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The operating scenario of this project whose rules become the new version' })
  @IsUUID()
  scenarioId!: string;

  @ApiPropertyOptional({ minimum: 1, description: 'Default: the current revision' })
  @IsOptional()
  @IsStoredInteger()
  revision?: number;

  @ApiProperty({ format: 'date-time', description: "Strictly in the future and strictly after the latest version's effectiveFrom" })
  @IsRealDateTime()
  effectiveFrom!: string;
}

export class RuleVersionDto {
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty({ minimum: 1, description: 'Gap-free: 1 is the activation, then 2, 3, ...' }) version!: number;
  @ApiProperty({ format: 'uuid' }) scenarioId!: string;
  @ApiProperty({ description: 'The scenario revision the rules were taken from' }) revision!: number;
  @ApiProperty({ example: 'sha256:…' }) rulesDigest!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The scenario content of that revision, frozen' }) rules!: Record<
    string,
    unknown
  >;
  @ApiProperty({ format: 'date-time' }) effectiveFrom!: string;
  @ApiProperty({ description: 'Who created it: subject kind and id' }) createdBy!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** What the caller is asked to confirm: exactly what the second call would activate. */
export class ActivationChallengeDto {
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty({ format: 'uuid' }) scenarioId!: string;
  @ApiProperty() revision!: number;
  @ApiProperty({ example: 'sha256:…' }) rulesDigest!: string;
  @ApiProperty({ format: 'date-time' }) effectiveFrom!: string;
  @ApiProperty({ type: () => LocalizedTextDto, description: 'What would be activated, in words' }) summary!: LocalizedTextDto;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

export class ConfirmationRequiredProblemDto extends ProblemDetailsDto {
  @ApiProperty({ type: () => ActivationChallengeDto }) challenge!: ActivationChallengeDto;
  @ApiProperty({ description: 'Single use, bound to the caller and this exact content; send it back as confirmationToken' })
  confirmationToken!: string;
}
