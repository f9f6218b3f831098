import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiPage,
  BranchScenarioRequestDto,
  CreateSplitProjectRequestDto,
  CreatedSplitProjectDto,
  DiscardedSplitProjectDto,
  OperatingScenarioDto,
  PageQueryDto,
  ProblemDetailsDto,
  SplitProjectDto,
} from '@stdreg/contracts';
import { Authorize, Authorized } from '../callers/authorize.decorator';
import type { Caller } from '../callers/caller';
import { SplitProjectsService } from './split-projects.service';
import { IdempotentWrites } from '../idempotency/idempotency.interceptor';

@ApiTags('split projects')
@Controller('split-projects')
@IdempotentWrites()
export class SplitProjectsController {
  constructor(private readonly projects: SplitProjectsService) {}

  @Post()
  @Authorize('split-project:draft')
  @ApiOperation({ summary: 'Create a split project and its first operating scenario (one transaction)' })
  @ApiCreatedResponse({ type: CreatedSplitProjectDto })
  @ApiConflictResponse({
    description:
      'The organization has as many projects in draft as it may (split_projects.draft_limit_reached), or an Idempotency-Key conflict',
    type: ProblemDetailsDto,
  })
  @ApiUnprocessableEntityResponse({
    description: 'The scenario content is not valid (errors located by JSON Pointer), or an Idempotency-Key reused with another body',
    type: ProblemDetailsDto,
  })
  create(@Body() body: CreateSplitProjectRequestDto, @Authorized() auth: Caller): Promise<CreatedSplitProjectDto> {
    return this.projects.create(body, auth);
  }

  @Get()
  @Authorize('split-project:read')
  @ApiOperation({ summary: "The organization's split projects" })
  @ApiPage(SplitProjectDto)
  list(@Query() query: PageQueryDto, @Authorized() auth: Caller): Promise<{ items: SplitProjectDto[]; nextCursor: string | null }> {
    return this.projects.list(auth, query);
  }

  @Get(':id')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOkResponse({ type: SplitProjectDto })
  get(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Caller): Promise<SplitProjectDto> {
    return this.projects.get(id, auth);
  }

  @Delete(':id')
  @Authorize('split-project:draft', { project: 'id' })
  @ApiOperation({
    summary:
      'Discard a draft (a project no rule version was made of): from then on it is not listed, not counted, and it and its scenarios are not found',
    description:
      'A person allowed to draft may discard any draft of the organization; an agent or an API key only one it created itself. ' +
      'Nothing is deleted: the project is marked, the write audit and a `split_project.discarded` event say who discarded it. ' +
      'Discarding a discarded project again answers the first discard and changes nothing.',
  })
  @ApiOkResponse({
    type: DiscardedSplitProjectDto,
    description: 'The discarded project, who discarded it and when (a repeat answers the first discard)',
  })
  @ApiForbiddenResponse({
    description:
      'identity denied split-project:draft, or an agent or a key asked to discard a draft it did not create (split_projects.discard_not_yours)',
    type: ProblemDetailsDto,
  })
  @ApiConflictResponse({
    description: 'The project was activated: it is no longer a draft (split_projects.not_a_draft), or an Idempotency-Key conflict',
    type: ProblemDetailsDto,
  })
  discard(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Caller): Promise<DiscardedSplitProjectDto> {
    return this.projects.discard(id, auth);
  }

  @Get(':id/scenarios')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOperation({ summary: "The project's operating scenarios, each at its current revision" })
  @ApiPage(OperatingScenarioDto)
  scenarios(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Caller) {
    return this.projects.listScenarios(id, auth, query);
  }

  @Post(':id/scenarios')
  @Authorize('split-project:draft', { project: 'id' })
  @ApiOperation({ summary: 'Branch: a new scenario starting from a scenario of this project at a revision' })
  @ApiCreatedResponse({ type: OperatingScenarioDto })
  @ApiConflictResponse({
    description: 'The project has as many scenarios as it may (scenarios.limit_reached), or an Idempotency-Key conflict',
    type: ProblemDetailsDto,
  })
  branch(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: BranchScenarioRequestDto,
    @Authorized() auth: Caller,
  ): Promise<OperatingScenarioDto> {
    return this.projects.branch(id, body, auth);
  }
}
