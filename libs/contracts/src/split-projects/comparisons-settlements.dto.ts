import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsISO8601, IsOptional, IsUUID, Matches, Min, ValidateNested } from 'class-validator';
import { PageQueryDto } from '../registry/registry-query.dto';

// Scenario comparison: a read that computes, never a settlement fact.

export class ComparedScenarioRefDto {
  @ApiProperty({ format: 'uuid', description: 'A scenario of the project' }) @IsUUID()
  scenarioId!: string;

  @ApiPropertyOptional({ minimum: 1, description: 'Default: the current revision' })
  @IsOptional() @IsInt() @Min(1)
  revision?: number;
}

export class ScenarioComparisonRequestDto {
  @ApiProperty({ type: () => [ComparedScenarioRefDto], minItems: 2, maxItems: 4, description: 'The first is the baseline' })
  @IsArray() @ArrayMinSize(2) @ArrayMaxSize(4) @ValidateNested({ each: true }) @Type(() => ComparedScenarioRefDto)
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
  @ApiProperty({ type: () => ComparedAmountDto, description: "total − the first scenario's total for this participant" }) difference!: ComparedAmountDto;
}

export class ComparedParticipantDto {
  @ApiProperty() participantId!: string;
  @ApiProperty({ type: () => [ParticipantColumnDto], description: 'One column per scenario, in the order of `scenarios`' }) columns!: ParticipantColumnDto[];
}

export class ScenarioComparisonDto {
  @ApiProperty({ format: 'uuid' }) projectId!: string;
  @ApiProperty({ example: 'EUR' }) currency!: string;
  @ApiProperty({ type: () => [ComparedScenarioDto], description: 'In the order asked; the first is the baseline' }) scenarios!: ComparedScenarioDto[];
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
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'The allocations as posted' })
  allocations!: Record<string, unknown>[];
  @ApiProperty({ example: 'sha256:…' }) digest!: string;
  @ApiProperty({ format: 'uuid', nullable: true, description: 'The run this one reverses, if it is a reversal' }) reversesRunId!: string | null;
  @ApiProperty({ description: 'Who posted it: subject kind and id' }) postedBy!: string;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const TIMESTAMP_MESSAGE = (field: string) => `${field} must be an ISO 8601 timestamp with a time zone, like 2026-01-01T00:00:00Z`;

export class EquityLedgerQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Only entries posted at or after this time' })
  @IsOptional() @Matches(TIMESTAMP, { message: TIMESTAMP_MESSAGE('from') }) @IsISO8601({ strict: true }, { message: TIMESTAMP_MESSAGE('from') })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only entries posted at or before this time' })
  @IsOptional() @Matches(TIMESTAMP, { message: TIMESTAMP_MESSAGE('to') }) @IsISO8601({ strict: true }, { message: TIMESTAMP_MESSAGE('to') })
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
