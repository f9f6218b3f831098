import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { RoleDto, TermDto } from './catalogue.dto';
import { LocalizedTextDto } from './localized.dto';

/** What POST /search looks in: controlled terms, clauses of the current standards, or roles (with their tasks). */
export const SEARCH_SCOPES = ['terms', 'standards', 'roles'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];
export const MAX_SEARCH_TEXT = 4000;
export const MAX_SEARCH_HITS = 20;

export class SearchRequestDto {
  @ApiProperty({
    description: 'The text to search for, in either language: a word, a description of a need, or a described practice',
    maxLength: MAX_SEARCH_TEXT,
    example: 'The same analyst prepares the settlement run and approves it.',
  })
  @IsString()
  @MaxLength(MAX_SEARCH_TEXT)
  @Matches(/[\p{L}\p{N}]/u, { message: 'q must contain at least one letter or digit' })
  q!: string;

  @ApiProperty({ enum: SEARCH_SCOPES, description: 'terms, standards (clause by clause, with evidence) or roles' })
  @IsIn(SEARCH_SCOPES)
  in!: SearchScope;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_SEARCH_HITS, default: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_HITS)
  limit?: number;
}

export class ConditionMatchDto {
  @ApiProperty({ description: 'The sentence of the text' }) sentence!: string;
  @ApiProperty({ description: "The clause's condition phrase (content pack) that the sentence matched" }) phrase!: string;
}

export class EvidenceDto {
  @ApiProperty({ description: 'A sentence of the text that bears on the clause' }) sentence!: string;
  @ApiProperty({ type: [String], description: 'Search words the sentence shares with the clause' }) words!: string[];
  @ApiProperty({ type: [String], description: 'termIds of the registry terms the sentence names' }) terms!: string[];
}

export class DepartureDto {
  @ApiProperty({
    description: "A sentence of the text that is about this clause above all (it scores at least 0.8 of the sentence's best clause)",
  })
  sentence!: string;
  @ApiProperty({ description: 'The words of the sentence that say the clause is not done, or done regardless of it' }) cue!: string;
}

export class ClauseFindingDto {
  @ApiProperty({ example: '2' }) clauseId!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) text!: LocalizedTextDto;
  @ApiProperty({ description: 'Relevance of the clause to the whole text (BM25; 0 when it shares nothing)' }) score!: number;
  @ApiProperty({ type: () => [EvidenceDto] }) evidence!: EvidenceDto[];
  @ApiProperty({ type: () => [ConditionMatchDto], description: 'Sentences that state what the clause requires (never negated ones)' })
  stated!: ConditionMatchDto[];
  @ApiProperty({ type: () => [ConditionMatchDto], description: 'Sentences that state the opposite of what the clause requires' })
  contradicted!: ConditionMatchDto[];
  @ApiProperty({
    type: () => [DepartureDto],
    description:
      'Sentences about this clause above all that say what it obliges is not done, or is done regardless ("even though", "anyway"), read from the sentence and the clause text rather than from condition phrases',
  })
  departures!: DepartureDto[];
}

export class StandardFindingDto {
  @ApiProperty({ example: 'GOV-2' }) sectionId!: string;
  @ApiProperty({ example: '2.0' }) version!: string;
  @ApiProperty({ example: 'GOV-2@2.0' }) citation!: string;
  @ApiProperty({ type: () => LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: [String], description: 'Registry terms the text names that this block governs' }) terms!: string[];
  @ApiProperty({ type: () => [ClauseFindingDto], description: 'Every clause of the block, in order' }) clauses!: ClauseFindingDto[];
}

export class SearchHitDto {
  @ApiProperty({ description: 'termId, sectionId or role', example: 'separation-of-duties' }) id!: string;
  @ApiProperty({ description: 'Relevance; comparable within one answer only' }) score!: number;
  @ApiProperty({ type: [String], description: 'Words of the text that matched (after folding, stemming and segmentation)' })
  matchedWords!: string[];
  @ApiPropertyOptional({ enum: ['exact', 'synonym', 'near'], description: 'terms: how the text names the term' })
  match?: 'exact' | 'synonym' | 'near';
  @ApiPropertyOptional({ type: () => TermDto }) term?: TermDto;
  @ApiPropertyOptional({ type: () => RoleDto }) role?: RoleDto;
  @ApiPropertyOptional({ type: () => StandardFindingDto }) standard?: StandardFindingDto;
}

export class SearchResultDto {
  @ApiProperty() q!: string;
  @ApiProperty({ enum: SEARCH_SCOPES }) in!: SearchScope;
  @ApiProperty({ description: 'Content digest of the release searched (as the manifest names it)' }) digest!: string;
  @ApiProperty({ type: () => [SearchHitDto], description: 'Best first' }) hits!: SearchHitDto[];
}
