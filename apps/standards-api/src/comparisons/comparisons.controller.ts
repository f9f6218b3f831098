import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ScenarioComparisonDto, ScenarioComparisonRequestDto } from '@stdreg/contracts';
import { Authorize, Authorized } from '../callers/authorize.decorator';
import type { Caller } from '../callers/caller';
import { ComparisonsService } from './comparisons.service';
import { IdempotentWrites } from '../idempotency/idempotency.interceptor';

@ApiTags('split projects')
@Controller('split-projects')
@IdempotentWrites()
export class ComparisonsController {
  constructor(private readonly comparisons: ComparisonsService) {}

  @Post(':id/scenario-comparisons')
  @HttpCode(200)
  @Authorize('split-project:read', { project: 'id' })
  @ApiOperation({
    summary:
      'Side-by-side projected allocations of 2 to 4 scenarios of the project and their differences against the first; stores nothing',
  })
  @ApiOkResponse({ type: ScenarioComparisonDto })
  compare(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: ScenarioComparisonRequestDto,
    @Authorized() auth: Caller,
  ): Promise<ScenarioComparisonDto> {
    return this.comparisons.compare(id, body, auth);
  }
}
