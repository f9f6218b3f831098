import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LocalizedTextDto } from './localized.dto';

export class CanonicalSourceDto {
  @ApiProperty() publisher!: string;
  @ApiProperty() edition!: string;
  @ApiProperty({ format: 'uri' }) uri!: string;
  @ApiProperty({ description: 'SHA-256 (hex) of the source text', pattern: '^[0-9a-f]{64}$' }) sha256!: string;
}

export class ClauseDto {
  @ApiProperty({ example: '2.1' }) clauseId!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) text!: LocalizedTextDto;
}

export class StandardSummaryDto {
  @ApiProperty({ example: 'RUL-3' }) sectionId!: string;
  @ApiProperty({ example: '2.0', description: 'The current version' }) version!: string;
  @ApiProperty({ type: [String], description: 'Every version, oldest first' }) versions!: string[];
  @ApiProperty({ example: '2026-01-01' }) effectiveFrom!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) summary!: LocalizedTextDto;
  @ApiProperty({ type: [String] }) tags!: string[];
}

export class StandardBlockDto {
  @ApiProperty({ example: 'RUL-3' }) sectionId!: string;
  @ApiProperty({ example: '2.0' }) version!: string;
  @ApiProperty({ enum: ['current', 'superseded'] }) status!: 'current' | 'superseded';
  @ApiProperty({ example: '2026-01-01' }) effectiveFrom!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) supersedes!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) supersededBy!: string | null;
  @ApiProperty({ type: [String], description: 'Every version, oldest first' }) versions!: string[];
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: () => LocalizedTextDto }) summary!: LocalizedTextDto;
  @ApiProperty({ type: () => [ClauseDto] }) clauses!: ClauseDto[];
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: () => CanonicalSourceDto }) source!: CanonicalSourceDto;
  @ApiProperty({ example: 'RUL-3@2.0', description: 'Citation of this block version' }) citation!: string;
}
