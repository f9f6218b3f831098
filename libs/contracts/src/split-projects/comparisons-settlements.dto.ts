import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { ProblemDetailsDto } from '../errors';
import { IsRealDateTime, IsStoredInteger } from '../validation';
import { LocalizedTextDto } from '../registry/localized.dto';
import { PageQueryDto } from '../pagination';

// Scenario comparison: a read that computes, never a settlement fact.

export class ComparedScenarioRefDto {
  @ApiProperty({ format: 'uuid', description: 'A scenario of the project' })
  @IsUUID()
  scenarioId!: string;

  @ApiPropertyOptional({ minimum: 1, description: 'Default: the current revision' })
  @IsOptional()
  @IsStoredInteger()
  revision?: number;
}

export class ScenarioComparisonRequestDto {
  @ApiProperty({ type: () => [ComparedScenarioRefDto], minItems: 2, maxItems: 4, description: 'The first is the baseline' })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(4)
  @ValidateNested({ each: true })
  @Type(() => ComparedScenarioRefDto)
  scenarios!: ComparedScenarioRefDto[];
}

/** An amount both ways: the decimal string and its exact integer minor units (as a string, JSON has no bigint). */
export class ComparedAmountDto {
  @ApiProperty({ example: '1234.50' }) amount!: string;
  @ApiProperty({ example: '123450' }) minorUnits!: string;
}

export class ComparedScenarioDto {
  @ApiProperty({ format: 'uuid' }) scenarioId!: string;
  @ApiProperty() revision!: number;
  @ApiProperty({ example: 'Baseline r3', description: 'Scenario name and revision' }) label!: string;
  @ApiProperty({ example: 'sha256:…' }) rulesDigest!: string;
  @ApiProperty({ description: 'Number of periods settled' }) periods!: number;
  @ApiProperty({ type: () => ComparedAmountDto }) distributable!: ComparedAmountDto;
  @ApiProperty({ type: () => ComparedAmountDto, description: "distributable − the first scenario's" }) difference!: ComparedAmountDto;
}

export class ParticipantColumnDto {
  @ApiProperty({ format: 'uuid' }) scenarioId!: string;
  @ApiProperty() revision!: number;
  @ApiProperty() label!: string;
  @ApiProperty({ description: 'False when this scenario does not list the participant (its total is then 0)' }) present!: boolean;
  @ApiProperty({ type: () => ComparedAmountDto }) total!: ComparedAmountDto;
  @ApiProperty({ type: () => ComparedAmountDto, description: "total − the first scenario's total for this participant" })
  difference!: ComparedAmountDto;
}

export class ComparedParticipantDto {
  @ApiProperty() participantId!: string;
  @ApiProperty({ type: () => [ParticipantColumnDto], description: 'One column per scenario, in the order of `scenarios`' })
  columns!: ParticipantColumnDto[];
}

export class ScenarioComparisonDto {
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: () => [ComparedScenarioDto], description: 'In the order asked; the first is the baseline' })
  scenarios!: ComparedScenarioDto[];
  @ApiProperty({ type: () => [ComparedParticipantDto], description: 'Every participant of any scenario, by participantId' })
  participants!: ComparedParticipantDto[];
}

// Settlement runs and equity ledgers: read models of posted settlements.

export class SettlementRunDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty({ example: '2026-01' }) periodId!: string;
  @ApiProperty({ description: 'The rule version the run settled under' }) ruleVersion!: number;
  @ApiProperty({ example: '10000.00' }) gross!: string;
  @ApiProperty({ example: '2500.01' }) costs!: string;
  @ApiProperty({ example: '7499.99' }) distributable!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'The allocations as posted: one `{ participantId, legalEntityId, amount }` per participant of the rule version, in its order',
  })
  allocations!: Record<string, unknown>[];
  @ApiProperty({ example: 'sha256:…' }) digest!: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The run this one corrects, if it is a correction: that run's allocation entries are reversed entry by entry in this run",
  })
  reversesRunId!: string | null;
  @ApiProperty({ description: 'Who posted it: subject kind and id' }) postedBy!: string;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
  @ApiProperty({ format: 'date-time', description: "The period's end: the rule version in force then is the one applied" })
  periodEnd!: string;
  @ApiProperty({ example: 'sha256:…', description: "The applied rule version's rules digest" }) rulesDigest!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: "split-engine's tier-by-tier settlement, amounts as decimal strings",
  })
  tiers!: Record<string, unknown>[];
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The run that corrected this one; null while this run stands for its period',
  })
  correctedByRunId!: string | null;
}

export class PostSettlementRunRequestDto {
  @ApiProperty({ example: '2026-01', description: 'The period settled: a kebab-case id such as 2026-01 or 2026-q1' })
  @IsString()
  @Length(1, 40)
  periodId!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the period ended; not in the future. The rule version in force at that time applies',
  })
  @IsRealDateTime()
  periodEnd!: string;

  @ApiProperty({ example: '12000.00', description: "Actual revenue of the period, in the project's currency" })
  @IsString()
  @Length(1, 40)
  revenue!: string;

  @ApiProperty({ example: '2500.01', description: "Actual costs of the period, in the project's currency" })
  @IsString()
  @Length(1, 40)
  costs!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "For a correction: the period's standing run, whose entries this run reverses entry by entry before posting the corrected allocation",
  })
  @IsOptional()
  @IsUUID()
  correctsRunId?: string;

  @ApiPropertyOptional({ description: 'The single-use token of the 428 challenge; without it the call only answers the challenge' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  confirmationToken?: string;
}

export class SettlementAllocationDto {
  @ApiProperty() participantId!: string;
  @ApiProperty() legalEntityId!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) name!: LocalizedTextDto;
  @ApiProperty({ example: '5399.99' }) amount!: string;
}

export class SettlementReversalDto {
  @ApiProperty({ format: 'uuid', description: 'The ledger entry reversed' }) entryId!: string;
  @ApiProperty() participantId!: string;
  @ApiProperty() legalEntityId!: string;
  @ApiProperty({ example: '-5399.99', description: 'The entry that will be appended: the negated amount' }) amount!: string;
}

/** What the caller is asked to confirm: exactly what the second call would post. */
export class SettlementChallengeDto {
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty() periodId!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: '12000.00', description: 'Actual revenue' }) gross!: string;
  @ApiProperty({ example: '2500.01' }) costs!: string;
  @ApiProperty({ example: '9499.99', description: 'max(0, gross − costs)' }) distributable!: string;
  @ApiProperty({ description: 'The rule version in force at periodEnd' }) ruleVersion!: number;
  @ApiProperty({ example: 'sha256:…' }) rulesDigest!: string;
  @ApiProperty({ type: () => [SettlementAllocationDto], description: "Every participant, in the rule version's order" })
  allocations!: SettlementAllocationDto[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) correctsRunId!: string | null;
  @ApiProperty({ type: () => [SettlementReversalDto], description: "For a correction: the corrected run's entries, each reversed" })
  reversals!: SettlementReversalDto[];
  @ApiProperty({ type: () => LocalizedTextDto, description: 'What would be posted, in words' }) summary!: LocalizedTextDto;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

export class SettlementConfirmationRequiredProblemDto extends ProblemDetailsDto {
  @ApiProperty({ type: () => SettlementChallengeDto }) challenge!: SettlementChallengeDto;
  @ApiProperty({ description: 'Single use, bound to the caller, this project and this exact posting; send it back as confirmationToken' })
  confirmationToken!: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const TIMESTAMP_MESSAGE = (field: string) => `${field} must be an ISO 8601 timestamp with a time zone, like 2026-01-01T00:00:00Z`;

export class EquityLedgerQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only entries posted at or after this time' })
  @IsOptional()
  @Matches(TIMESTAMP, { message: TIMESTAMP_MESSAGE('from') })
  @IsISO8601({ strict: true }, { message: TIMESTAMP_MESSAGE('from') })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only entries posted at or before this time, to the millisecond: an entry whose `postedAt` shows this time is included',
  })
  @IsOptional()
  @Matches(TIMESTAMP, { message: TIMESTAMP_MESSAGE('to') })
  @IsISO8601({ strict: true }, { message: TIMESTAMP_MESSAGE('to') })
  to?: string;
}

export class EquityLedgerEntryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) settlementRunId!: string;
  @ApiProperty() participantId!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: '-12.50', description: 'Signed decimal string' }) amount!: string;
  @ApiProperty({ example: '240.00', description: "The ledger's balance in this currency after this entry, counting every earlier entry" })
  balance!: string;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
  @ApiProperty({
    enum: ['allocation', 'reversal'],
    description: "A run's allocation to the participant, or the reversal of an earlier allocation entry",
  })
  kind!: 'allocation' | 'reversal';
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'For a reversal: the entry it reverses' }) reversesEntryId!:
    string | null;
}

export class LedgerBalanceDto {
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ example: '240.00' }) balance!: string;
}

export class EquityLedgerPageDto {
  @ApiProperty() legalEntityId!: string;
  @ApiProperty({ type: () => [EquityLedgerEntryDto], description: 'Oldest first' }) entries!: EquityLedgerEntryDto[];
  @ApiProperty({
    type: () => [LedgerBalanceDto],
    description: "Each currency's balance after the last entry of this page (counting every earlier entry), by currency",
  })
  balances!: LedgerBalanceDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor!: string | null;
}
