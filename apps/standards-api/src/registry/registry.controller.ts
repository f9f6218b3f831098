import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
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
import { ApiPage } from '@stdreg/contracts';
import { ApiRegistryErrors } from '../api-decorators/api-decorators';
import { Locale, type NegotiatedLocale } from './locale.decorator';
import { RegistryService } from './registry.service';
import { sendWhenReady } from './representation';

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
  manifest(@Query() _query: LanguageQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.manifest(locale));
  }

  @Get('standards')
  @ApiOperation({ summary: 'List standards blocks (current versions)' })
  @ApiPage(StandardSummaryDto)
  standards(@Query() query: ListQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.standards(query, locale));
  }

  @Get('standards/:sectionId')
  @ApiOperation({ summary: 'One standards block with its canonical source; ?version= for an older one' })
  @ApiOkResponse({ type: StandardBlockDto })
  standard(
    @Param('sectionId') sectionId: string,
    @Query() query: VersionedReadQueryDto,
    @Locale() locale: NegotiatedLocale,
    @Res() res: Response,
  ): void | Promise<void> {
    return sendWhenReady(res, this.registry.standard(sectionId, query, locale));
  }

  @Get('terms')
  @ApiOperation({ summary: 'Controlled bilingual terminology; ?q= searches both languages' })
  @ApiPage(TermDto)
  terms(@Query() query: TermSearchQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.terms(query, locale));
  }

  @Get('tasks')
  @ApiOperation({ summary: 'List standard task records (TaskSpec)' })
  @ApiPage(TaskSpecDto)
  tasks(@Query() query: ListQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.tasks(query, locale));
  }

  @Get('tasks/:taskCode')
  @ApiOperation({ summary: 'One task record' })
  @ApiOkResponse({ type: TaskSpecDto })
  task(
    @Param('taskCode') taskCode: string,
    @Query() _query: LanguageQueryDto,
    @Locale() locale: NegotiatedLocale,
    @Res() res: Response,
  ): void | Promise<void> {
    return sendWhenReady(res, this.registry.task(taskCode, locale));
  }

  @Get('roles')
  @ApiOperation({ summary: 'List stakeholder and operational roles' })
  @ApiPage(RoleDto)
  roles(@Query() query: ListQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.roles(query, locale));
  }

  @Get('roles/:role')
  @ApiOperation({ summary: 'One role' })
  @ApiOkResponse({ type: RoleDto })
  role(
    @Param('role') role: string,
    @Query() _query: LanguageQueryDto,
    @Locale() locale: NegotiatedLocale,
    @Res() res: Response,
  ): void | Promise<void> {
    return sendWhenReady(res, this.registry.role(role, locale));
  }

  @Get('policies')
  @ApiOperation({ summary: 'List policies, each at the version in force today' })
  @ApiPage(PolicyDto)
  policies(@Query() query: ListQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.policies(query, locale));
  }

  @Get('policies/:policyId')
  @ApiOperation({ summary: 'A policy with its versioned citation: in force today, ?version=, or ?at=<date>' })
  @ApiOkResponse({ type: PolicyDto })
  policy(
    @Param('policyId') policyId: string,
    @Query() query: PolicyReadQueryDto,
    @Locale() locale: NegotiatedLocale,
    @Res() res: Response,
  ): void | Promise<void> {
    return sendWhenReady(res, this.registry.policy(policyId, query, locale));
  }

  @Get('brand/current')
  @ApiOperation({ summary: 'The pinned brand snapshot' })
  @ApiOkResponse({ type: BrandSnapshotDto })
  brand(@Query() _query: LanguageQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.brand(locale));
  }

  @Get('split-templates')
  @ApiOperation({ summary: 'List split templates' })
  @ApiPage(SplitTemplateDto)
  splitTemplates(@Query() query: ListQueryDto, @Locale() locale: NegotiatedLocale, @Res() res: Response): void | Promise<void> {
    return sendWhenReady(res, this.registry.splitTemplates(query, locale));
  }

  @Get('split-templates/:version')
  @ApiOperation({ summary: 'One split template version' })
  @ApiOkResponse({ type: SplitTemplateDto })
  splitTemplate(
    @Param('version') version: string,
    @Query() _query: LanguageQueryDto,
    @Locale() locale: NegotiatedLocale,
    @Res() res: Response,
  ): void | Promise<void> {
    return sendWhenReady(res, this.registry.splitTemplate(version, locale));
  }
}
