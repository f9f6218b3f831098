import { Body, Controller, Get, Headers, Param, ParseUUIDPipe, Patch, Query, Res } from '@nestjs/common';
import { ParseStoredIntegerPipe } from '@stdreg/server-kit';
import {
  ApiBody,
  ApiConflictResponse,
  ApiHeader,
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiQuery,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiPage, OperatingScenarioDto, PageQueryDto, ProblemDetailsDto, ScenarioRevisionDto } from '@stdreg/contracts';
import { Authorize, Authorized } from '../callers/authorize.decorator';
import type { Caller } from '../callers/caller';
import { evaluatePreconditions, preconditionsOf } from '../conditional-requests/preconditions';
import { staleScenario } from './split-projects.errors';
import { scenarioEtag, SplitProjectsService } from './split-projects.service';

@ApiTags('split projects')
@Controller('operating-scenarios')
export class OperatingScenariosController {
  constructor(private readonly projects: SplitProjectsService) {}

  @Get(':id')
  @Authorize('split-project:read')
  @ApiOperation({ summary: 'An operating scenario at its current revision, or ?revision= for a past one; ETag names the revision' })
  @ApiQuery({ name: 'revision', required: false, type: Number })
  @ApiOkResponse({
    type: OperatingScenarioDto,
    headers: {
      ETag: { description: 'The current revision (send it as If-Match to PATCH); absent on a past revision', schema: { type: 'string' } },
    },
  })
  @ApiNotModifiedResponse({ description: 'If-None-Match names the current revision (weak comparison) or is *' })
  @ApiPreconditionFailedResponse({
    description: 'If-Match does not name the current revision (strong comparison)',
    type: ProblemDetailsDto,
  })
  async get(
    @Param('id', ParseUUIDPipe) id: string,
    @Query('revision', new ParseStoredIntegerPipe({ optional: true })) revision: number | undefined,
    @Authorized() auth: Caller,
    @Res() response: Response,
  ): Promise<void> {
    sendScenario(response, await this.projects.getScenario(id, revision, auth));
  }

  @Get(':id/revisions')
  @Authorize('split-project:read')
  @ApiOperation({ summary: 'The revision history, oldest first, a page at a time (`limit`, `cursor` from `nextCursor`)' })
  @ApiPage(ScenarioRevisionDto)
  revisions(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Caller) {
    return this.projects.listRevisions(id, auth, query);
  }

  @Patch(':id')
  @Authorize('split-project:draft')
  @ApiOperation({ summary: 'Append a revision: a JSON Merge Patch (RFC 7396) of the current content, validated by the split engine' })
  @ApiHeader({ name: 'If-Match', required: false, description: "The scenario's ETag; a stale one is refused with 412" })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'Refused with 412 when it is * or names the current revision' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ type: OperatingScenarioDto })
  @ApiPreconditionFailedResponse({
    description: 'If-Match does not name the current revision, or If-None-Match does (or is *)',
    type: ProblemDetailsDto,
  })
  @ApiConflictResponse({
    description: 'The scenario has as many revisions as it may (scenarios.revision_limit_reached)',
    type: ProblemDetailsDto,
  })
  @ApiUnprocessableEntityResponse({
    description: 'The patched content is not a valid scenario (errors located by JSON Pointer)',
    type: ProblemDetailsDto,
  })
  async revise(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() patch: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Authorized() auth: Caller,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OperatingScenarioDto> {
    return withEtag(response, await this.projects.revise(id, patch, { ifMatch, ifNoneMatch }, auth));
  }
}

/** The scenario, or 304 or 412 as its preconditions say (RFC 9110 section 13.2.2); a past revision has no ETag. */
function sendScenario(response: Response, scenario: OperatingScenarioDto): void {
  const etag = scenario.revision === scenario.currentRevision ? scenarioEtag(scenario.id, scenario.revision) : null;
  const outcome = evaluatePreconditions(response.req.method, preconditionsOf(response.req.headers), etag);
  if (outcome === 'if-match-failed' || outcome === 'if-none-match-failed') {
    throw staleScenario(scenarioEtag(scenario.id, scenario.currentRevision));
  }
  withEtag(response, scenario);
  if (outcome === 'not-modified') response.status(304).end();
  else response.status(200).json(scenario);
}

function withEtag(response: Response, scenario: OperatingScenarioDto): OperatingScenarioDto {
  if (scenario.revision === scenario.currentRevision) response.setHeader('ETag', scenarioEtag(scenario.id, scenario.revision));
  response.setHeader('Cache-Control', 'private, no-cache');
  return scenario;
}
