import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, IsUUID, Length, Matches, ValidateNested } from 'class-validator';
import { AGENT_SCOPE_LIST } from './agent-access';

export const CREDENTIAL_KINDS = ['api_key', 'access_token'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
/** `agent`: software acting for a person (an agent client's token) or under a named supervisor (an agent's key). */
export const SUBJECT_KINDS = ['human', 'app_key', 'platform_key', 'agent'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];
export const DECISIONS = ['allow', 'deny'] as const;
export type DecisionValue = (typeof DECISIONS)[number];
/** Every reason identity gives for a denial; a service passes on no other. */
export const DENIAL_REASONS = [
  'unknown_action',
  'invalid_credential',
  'human_required',
  'organization_required',
  'organization_mismatch',
  'role_required',
  'authentication_too_old',
  'agent_delegated',
  'insufficient_scope',
] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];
/**
 * A formal write by a person whose sign-in is older than the answer's `maxAge` (seconds): the person
 * must sign in again (RFC 9470 step-up: `max_age`, or `prompt=login`).
 */
export const AUTHENTICATION_TOO_OLD = 'authentication_too_old' satisfies DenialReason;
/** The credential is unknown, expired or revoked: a 401 (DESIGN.md), not a 403, so a client signs in or refreshes. */
export const INVALID_CREDENTIAL = 'invalid_credential' satisfies DenialReason;
/** No formal write tolerates a sign-in older than a day; a longer `maxAge` in an answer is not believed. */
export const MAX_FORMAL_WRITE_MAX_AGE_SECONDS = 86400;

/** No credential the platform issues is longer: a longer bearer is refused before identity is asked. */
export const MAX_CREDENTIAL_LENGTH = 8192;
/** No resource id is longer: a longer project id names nothing. */
export const MAX_RESOURCE_ID_LENGTH = 200;

export class ForwardedCredentialDto {
  @ApiProperty({ enum: CREDENTIAL_KINDS, description: 'An API key, or a user access token from sign-in' })
  @IsIn(CREDENTIAL_KINDS)
  kind!: CredentialKind;

  @ApiProperty({ description: 'The credential exactly as the end caller presented it (without "Bearer ")' })
  @IsString()
  @Length(1, MAX_CREDENTIAL_LENGTH)
  value!: string;
}

export class DecisionResourceDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() organizationId?: string;
  @ApiPropertyOptional({ description: 'e.g. a split project id' })
  @IsOptional()
  @IsString()
  @Length(1, MAX_RESOURCE_ID_LENGTH)
  projectId?: string;
}

export class DecisionRequestDto {
  @ApiProperty({ type: () => ForwardedCredentialDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ForwardedCredentialDto)
  credential!: ForwardedCredentialDto;

  @ApiProperty({ example: 'split-project:draft', description: 'An action of the catalogue; an unknown one is denied' })
  @IsString()
  @Length(1, 100)
  action!: string;

  @ApiProperty({ type: () => DecisionResourceDto })
  @IsObject()
  @ValidateNested()
  @Type(() => DecisionResourceDto)
  resource!: DecisionResourceDto;

  @ApiPropertyOptional({ description: 'A value unique to this question, echoed in the answer (16 to 128 characters)' })
  @IsOptional()
  @IsString()
  @Length(16, 128)
  nonce?: string;

  @ApiPropertyOptional({
    description:
      'The resource the asking service is (RFC 8707): an access token issued for another audience is refused. Absent: the standards API.',
    example: 'https://platform.example.com/mcp',
  })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  audience?: string;

  @ApiPropertyOptional({
    description: "Agent scopes the operation needs beyond the action's own (space-separated); an agent's token without them is denied",
    example: 'projects:draft',
  })
  @IsOptional()
  @IsString()
  @Matches(AGENT_SCOPE_LIST, { message: 'scope must be agent scopes separated by spaces' })
  scope?: string;
}

/** What identity decided, echoed so that the asking service can check the answer is to its own question. */
export class DecisionQuestionDto {
  @ApiProperty() action!: string;
  @ApiProperty({ type: () => DecisionResourceDto }) resource!: DecisionResourceDto;
  @ApiProperty({ description: 'base64url SHA-256 of "<kind>:<value>" of the credential decided on' }) credentialDigest!: string;
  @ApiProperty({ type: String, nullable: true }) nonce!: string | null;
  @ApiPropertyOptional({ description: 'The audience asked about, when the question named one' }) audience?: string;
  @ApiPropertyOptional({ description: 'The scopes asked about, when the question named any' }) scope?: string;
}

export class DecisionSubjectDto {
  @ApiProperty({ enum: SUBJECT_KINDS }) kind!: SubjectKind;
  @ApiProperty({ description: "uid for a human, key id for a key, the agent's client id for an agent acting through a token" }) id!: string;
  @ApiPropertyOptional({ description: 'Key prefix, for keys' }) keyPrefix?: string;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' }) organizationId?: string | null;
  @ApiPropertyOptional({
    description: 'For an agent: the uid of the person accountable for it (who consented, or who was named for its key)',
  })
  supervisorId?: string;
  @ApiPropertyOptional({ description: "For an agent's token: the scopes it was granted", type: [String] }) scopes?: string[];
}

export class DecisionResponseDto {
  @ApiProperty({ enum: DECISIONS }) decision!: DecisionValue;
  @ApiProperty({ example: 'human_required' }) reason!: string;
  @ApiProperty({ type: () => DecisionSubjectDto, nullable: true }) subject!: DecisionSubjectDto | null;
  @ApiPropertyOptional({
    description: 'With `authentication_too_old` only: the sign-in a formal write needs must be younger than this many seconds',
    example: 300,
  })
  maxAge?: number;
  @ApiProperty({ type: () => DecisionQuestionDto }) question!: DecisionQuestionDto;
}
