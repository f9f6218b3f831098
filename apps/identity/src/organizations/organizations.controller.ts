import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateOrganizationRequestDto, PageQueryDto, OrganizationDto } from '@stdreg/contracts';
import { actorOf, Caller, type KeyCaller } from '../auth/caller';
import { PlatformKeyAuth } from '../auth/decorators';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@PlatformKeyAuth()
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @ApiOperation({ summary: 'Create an organization (role bindings and app keys are scoped to one)' })
  @ApiCreatedResponse({ type: OrganizationDto })
  create(@Body() body: CreateOrganizationRequestDto, @Caller() caller: KeyCaller): Promise<OrganizationDto> {
    return this.organizations.create(body.name, actorOf(caller));
  }

  @Get()
  list(@Query() query: PageQueryDto): Promise<{ items: OrganizationDto[]; nextCursor: string | null }> {
    return this.organizations.list(query);
  }

  @Get(':organizationId')
  @ApiOkResponse({ type: OrganizationDto })
  get(@Param('organizationId', ParseUUIDPipe) organizationId: string): Promise<OrganizationDto> {
    return this.organizations.get(organizationId);
  }
}
