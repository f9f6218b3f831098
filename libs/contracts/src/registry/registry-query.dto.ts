import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LOCALES, type Locale } from '../locale';
import { PageQueryDto } from '../pagination';
import { IsCalendarDay } from '../validation';

export const VERSION_PATTERN = /^[0-9]+\.[0-9]+$/;

export class LanguageQueryDto {
  @ApiPropertyOptional({
    enum: LOCALES,
    description: 'Adds a flattened `text` view in this locale and `Content-Language`; overrides Accept-Language.',
  })
  @IsOptional()
  @IsIn(LOCALES)
  lang?: Locale;
}

export class ListQueryDto extends IntersectionType(LanguageQueryDto, PageQueryDto) {}

export class TermSearchQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description:
      'Search in both languages (names, synonyms, designations, definitions), ranked by relevance (BM25), tolerant of typos and prefixes; case-, width- and diacritic-insensitive. Pages follow the ranking.',
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}

export class VersionedReadQueryDto extends LanguageQueryDto {
  @ApiPropertyOptional({ description: 'A specific version, e.g. `1.0`; default: the current one.', example: '1.0' })
  @IsOptional()
  @Matches(VERSION_PATTERN, { message: 'version must look like 1.0' })
  version?: string;
}

export class PolicyReadQueryDto extends VersionedReadQueryDto {
  @ApiPropertyOptional({
    format: 'date',
    description: 'The version in force on this date (YYYY-MM-DD); not with `version` (400 registry.version_and_at).',
    example: '2026-03-01',
  })
  @IsOptional()
  @IsCalendarDay()
  at?: string;
}
