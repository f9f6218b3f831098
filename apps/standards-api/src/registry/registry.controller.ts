import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  BrandSnapshotDto,
  LanguageQueryDto,
  ListQueryDto,
  ManifestDto,
  PolicyDto,
  PolicyReadQueryDto,
  RoleDto,
  SplitTemplateDto,
  StandardBlockDto,
  StandardSummaryDto,
  TaskSpecDto,
  TermDto,
  TermSearchQueryDto,
  VersionedReadQueryDto,
} from '@stdreg/contracts';
import { ApiPage, ApiRegistryErrors } from '../api-decorators/api-decorators';
import { negotiateLocale } from './language';
import { RegistryService } from './registry.service';
import { sendRepresentation } from './representation';

/** The anonymous, cacheable registry reads of `/api/v2`. */
@ApiTags('registry')
@ApiExtraModels(StandardSummaryDto, TermDto, TaskSpecDto, RoleDto, PolicyDto, SplitTemplateDto)
@ApiRegistryErrors()
@Controller()
export class RegistryController {
  constructor(private readonly registry: RegistryService) {}

  @Get('manifest')
  @ApiOperation({ summary: 'Registry capabilities, counts, provenance and content digest' })
  @ApiOkResponse({ type: ManifestDto })
  manifest(@Query() query: LanguageQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.manifest(negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('standards')
  @ApiOperation({ summary: 'List standards blocks (current versions)' })
  @ApiPage(StandardSummaryDto)
  standards(@Query() query: ListQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.standards(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('standards/:sectionId')
  @ApiOperation({ summary: 'One standards block with its canonical source; ?version= for an older one' })
  @ApiOkResponse({ type: StandardBlockDto })
  standard(@Param('sectionId') sectionId: string, @Query() query: VersionedReadQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.standard(sectionId, query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('terms')
  @ApiOperation({ summary: 'Controlled bilingual terminology; ?q= searches both languages' })
  @ApiPage(TermDto)
  terms(@Query() query: TermSearchQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.terms(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('tasks')
  @ApiOperation({ summary: 'List standard task records (TaskSpec)' })
  @ApiPage(TaskSpecDto)
  tasks(@Query() query: ListQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.tasks(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('tasks/:taskCode')
  @ApiOperation({ summary: 'One task record' })
  @ApiOkResponse({ type: TaskSpecDto })
  task(@Param('taskCode') taskCode: string, @Query() query: LanguageQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.task(taskCode, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('roles')
  @ApiOperation({ summary: 'List stakeholder and operational roles' })
  @ApiPage(RoleDto)
  roles(@Query() query: ListQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.roles(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('roles/:role')
  @ApiOperation({ summary: 'One role' })
  @ApiOkResponse({ type: RoleDto })
  role(@Param('role') role: string, @Query() query: LanguageQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.role(role, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('policies')
  @ApiOperation({ summary: 'List policies, each at the version in force today' })
  @ApiPage(PolicyDto)
  policies(@Query() query: ListQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.policies(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('policies/:policyId')
  @ApiOperation({ summary: 'A policy with its versioned citation: in force today, ?version=, or ?at=<date>' })
  @ApiOkResponse({ type: PolicyDto })
  policy(@Param('policyId') policyId: string, @Query() query: PolicyReadQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.policy(policyId, query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('brand/current')
  @ApiOperation({ summary: 'The pinned brand snapshot' })
  @ApiOkResponse({ type: BrandSnapshotDto })
  brand(@Query() query: LanguageQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.brand(negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('split-templates')
  @ApiOperation({ summary: 'List split templates' })
  @ApiPage(SplitTemplateDto)
  splitTemplates(@Query() query: ListQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.splitTemplates(query, negotiateLocale(query.lang, req.headers['accept-language'])));
  }

  @Get('split-templates/:version')
  @ApiOperation({ summary: 'One split template version' })
  @ApiOkResponse({ type: SplitTemplateDto })
  splitTemplate(@Param('version') version: string, @Query() query: LanguageQueryDto, @Req() req: Request, @Res() res: Response): void {
    sendRepresentation(req, res, this.registry.splitTemplate(version, negotiateLocale(query.lang, req.headers['accept-language'])));
  }
}
