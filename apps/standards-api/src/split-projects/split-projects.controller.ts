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
import { Authorize, Authorized, type Authorization } from '../authorization/authorize.decorator';
import { SplitProjectsService } from './split-projects.service';

@ApiTags('split projects')
@Controller('split-projects')
export class SplitProjectsController {
  constructor(private readonly projects: SplitProjectsService) {}

  @Post()
  @Authorize('split-project:draft')
  @ApiOperation({ summary: 'Create a split project and its first operating scenario (one transaction)' })
  @ApiCreatedResponse({ type: CreatedSplitProjectDto })
  create(@Body() body: CreateSplitProjectRequestDto, @Authorized() auth: Authorization): Promise<CreatedSplitProjectDto> {
    return this.projects.create(body, auth);
  }

  @Get()
  @Authorize('split-project:read')
  @ApiOperation({ summary: "The organization's split projects" })
  list(@Query() query: PageQueryDto, @Authorized() auth: Authorization): Promise<{ items: SplitProjectDto[]; nextCursor: string | null }> {
    return this.projects.list(auth, query);
  }

  @Get(':id')
  @Authorize('split-project:read')
  @ApiOkResponse({ type: SplitProjectDto })
  get(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Authorization): Promise<SplitProjectDto> {
    return this.projects.get(id, auth);
  }

  @Get(':id/scenarios')
  @Authorize('split-project:read')
  @ApiOperation({ summary: "The project's operating scenarios, each at its current revision" })
  scenarios(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Authorization) {
    return this.projects.listScenarios(id, auth, query);
  }

  @Post(':id/scenarios')
  @Authorize('split-project:draft')
  @ApiOperation({ summary: 'Branch: a new scenario starting from a scenario of this project at a revision' })
  @ApiCreatedResponse({ type: OperatingScenarioDto })
  branch(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: BranchScenarioRequestDto,
    @Authorized() auth: Authorization,
  ): Promise<OperatingScenarioDto> {
    return this.projects.branch(id, body, auth);
  }
}
