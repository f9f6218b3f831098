import { applyDecorators, type Type as Class } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page; null on the last page. */
  nextCursor: string | null;
}

/** `?limit=` and `?cursor=` of every cursor-paginated list of every service; a list's own filters extend it. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from a previous page (`nextCursor`).' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  cursor?: string;
}

/** Documents a cursor page `{ items, nextCursor }` of the given item type as the operation's 200. */
export function ApiPage(item: Class): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(item),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['items', 'nextCursor'],
        properties: {
          items: { type: 'array', items: { $ref: getSchemaPath(item) } },
          nextCursor: { type: 'string', nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' },
        },
      },
    }),
  );
}
