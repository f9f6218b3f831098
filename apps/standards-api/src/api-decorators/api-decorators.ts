import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiBadRequestResponse, ApiOkResponse, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ProblemDetailsDto } from '@stdreg/contracts';

/** A cursor page `{ items, nextCursor }` of the given item type. */
export function ApiPage(item: Type): MethodDecorator {
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

/** The errors every registry read can answer, as problem details. */
export function ApiRegistryErrors(): ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ApiBadRequestResponse({ description: 'A malformed query parameter (named in errors)', type: ProblemDetailsDto }),
    ApiNotFoundResponse({ description: 'No such id or version', type: ProblemDetailsDto }),
    ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' }),
  );
}
