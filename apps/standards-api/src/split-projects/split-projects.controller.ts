import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BranchScenarioRequestDto,
  CreateSplitProjectRequestDto,
  CreatedSplitProjectDto,
  OperatingScenarioDto,
  PageQueryDto,
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
  create(@Body() body: CreateSplitProjectRequestDto, @Authorized() auth: Caller): Promise<CreatedSplitProjectDto> {
    return this.projects.create(body, auth);
  }

  @Get()
  @Authorize('split-project:read')
  @ApiOperation({ summary: "The organization's split projects" })
  list(@Query() query: PageQueryDto, @Authorized() auth: Caller): Promise<{ items: SplitProjectDto[]; nextCursor: string | null }> {
    return this.projects.list(auth, query);
  }

  @Get(':id')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOkResponse({ type: SplitProjectDto })
  get(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Caller): Promise<SplitProjectDto> {
    return this.projects.get(id, auth);
  }

  @Get(':id/scenarios')
  @Authorize('split-project:read', { project: 'id' })
  @ApiOperation({ summary: "The project's operating scenarios, each at its current revision" })
  scenarios(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Caller) {
    return this.projects.listScenarios(id, auth, query);
  }

  @Post(':id/scenarios')
  @Authorize('split-project:draft', { project: 'id' })
  @ApiOperation({ summary: 'Branch: a new scenario starting from a scenario of this project at a revision' })
  @ApiCreatedResponse({ type: OperatingScenarioDto })
  branch(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: BranchScenarioRequestDto,
    @Authorized() auth: Caller,
  ): Promise<OperatingScenarioDto> {
    return this.projects.branch(id, body, auth);
  }
}
