import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ParseStoredIntegerPipe } from '@stdreg/server-kit';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ActivateSplitProjectRequestDto,
  ConfirmationRequiredProblemDto,
  CreateRuleVersionRequestDto,
  PageQueryDto,
  ProblemDetailsDto,
  RuleVersionDto,
} from '@stdreg/contracts';
import { Authorize, Authorized } from '../callers/authorize.decorator';
import type { Caller } from '../callers/caller';
import { ApiPage } from '@stdreg/contracts';
import { RuleVersionsService } from './rule-versions.service';
import { IdempotentWrites } from '../idempotency/idempotency.interceptor';

@ApiTags('split projects')
@ApiExtraModels(ConfirmationRequiredProblemDto)
@Controller('split-projects')
@IdempotentWrites()
export class RuleVersionsController {
  constructor(private readonly versions: RuleVersionsService) {}

  @Post(':id/activate')
  @Authorize('split-project:activate', { project: 'id' })
  @ApiOperation({
    summary: 'Activate: create Rule Version 1, in two steps',
    description:
      'A signed-in person with an approving role only. Without confirmationToken: 428 with the challenge and a single-use token (10 minutes, bound to the caller and that content). With it: 201 and Rule Version 1.',
  })
  @ApiCreatedResponse({ type: RuleVersionDto })
  @ApiResponse({
    status: 428,
    description: 'confirmation_required: review the challenge and call again with its token',
    type: ConfirmationRequiredProblemDto,
  })
  @ApiConflictResponse({
    description: 'Already activated; the token is used or expired; the scenario changed since the challenge',
    type: ProblemDetailsDto,
  })
  @ApiUnprocessableEntityResponse({ description: 'effectiveFrom in the past', type: ProblemDetailsDto })
  activate(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: ActivateSplitProjectRequestDto,
    @Authorized() auth: Caller,
  ): Promise<RuleVersionDto> {
    return this.versions.activate(id, body, auth);
  }

  @Post(':id/rule-versions')
  @Authorize('rule-version:create', { project: 'id' })
  @ApiOperation({
    summary: "Create rule version n+1 from a scenario revision, effective strictly in the future and after the latest version's start",
  })
  @ApiCreatedResponse({ type: RuleVersionDto })
  @ApiConflictResponse({ description: 'The project is not activated', type: ProblemDetailsDto })
  @ApiUnprocessableEntityResponse({
    description: 'effectiveFrom not in the future, or not after the latest version',
    type: ProblemDetailsDto,
  })
  create(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: CreateRuleVersionRequestDto,
    @Authorized() auth: Caller,
  ): Promise<RuleVersionDto> {
    return this.versions.create(id, body, auth);
  }

  @Get(':id/rule-versions')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOperation({ summary: "The project's rule versions, oldest first" })
  @ApiPage(RuleVersionDto)
  list(
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: PageQueryDto,
    @Authorized() auth: Caller,
  ): Promise<{ items: RuleVersionDto[]; nextCursor: string | null }> {
    return this.versions.list(id, auth, query);
  }

  @Get(':id/rule-versions/:version')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOkResponse({ type: RuleVersionDto })
  get(
    @Param('id', ParseUUIDPipe) id: string,
    @Param('version', new ParseStoredIntegerPipe()) version: number,
    @Authorized() auth: Caller,
  ): Promise<RuleVersionDto> {
    return this.versions.get(id, version, auth);
  }
}
