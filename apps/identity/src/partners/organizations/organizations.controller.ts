import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPage, CreateOrganizationRequestDto, OrganizationDto, PageQueryDto, ProblemDetailsDto } from '@stdreg/contracts';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { KeyAuth, PlatformKeyAuth } from '../../access/callers/caller.decorators';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @PlatformKeyAuth()
  @ApiOperation({ summary: 'Create an organization (role bindings and app keys are scoped to one)' })
  @ApiCreatedResponse({ type: OrganizationDto })
  create(@Body() body: CreateOrganizationRequestDto, @Caller() caller: KeyCaller): Promise<OrganizationDto> {
    return this.organizations.create(body.name, actorOf(caller));
  }

  @Get()
  @PlatformKeyAuth()
  @ApiPage(OrganizationDto)
  list(@Query() query: PageQueryDto): Promise<{ items: OrganizationDto[]; nextCursor: string | null }> {
    return this.organizations.list(query);
  }

  @Get(':organizationId')
  @ApiForbiddenResponse({ description: "Another organization's (organizations.not_own)", type: ProblemDetailsDto })
  @KeyAuth()
  @ApiOperation({ summary: 'An organization: any one with a platform key, its own with an app key' })
  @ApiOkResponse({ type: OrganizationDto })
  get(@Param('organizationId', ParseUUIDPipe) organizationId: string, @Caller() caller: KeyCaller): Promise<OrganizationDto> {
    return this.organizations.getFor(caller, organizationId);
  }
}
