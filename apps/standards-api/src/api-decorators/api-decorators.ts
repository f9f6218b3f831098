import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiBadRequestResponse, ApiResponse } from '@nestjs/swagger';
import { ProblemDetailsDto } from '@stdreg/contracts';

/** The errors every registry read can answer, as problem details. */
export function ApiRegistryErrors(): ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ApiBadRequestResponse({ description: 'A malformed query parameter (named in errors)', type: ProblemDetailsDto }),
    ApiNotFoundResponse({ description: 'No such id or version', type: ProblemDetailsDto }),
    ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' }),
    ApiResponse({ status: 412, description: 'If-Match does not name the ETag (strong comparison)', type: ProblemDetailsDto }),
  );
}
