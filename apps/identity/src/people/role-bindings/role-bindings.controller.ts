import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { GrantRoleRequestDto, ProblemDetailsDto, RoleBindingDto, RoleBindingQueryDto } from '@stdreg/contracts';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { PlatformKeyAuth } from '../../access/callers/caller.decorators';
import { RoleBindingsService } from './role-bindings.service';

@ApiTags('role-bindings')
@PlatformKeyAuth()
@ApiExtraModels(RoleBindingDto)
@Controller('role-bindings')
export class RoleBindingsController {
  constructor(private readonly roles: RoleBindingsService) {}

  @Post()
  @ApiOperation({ summary: 'Grant a role to a unified user (a merged uid grants to its survivor): global, or scoped to an organization' })
  @ApiCreatedResponse({ type: RoleBindingDto })
  @ApiNotFoundResponse({ description: 'No such unified user', type: ProblemDetailsDto })
  @ApiUnprocessableEntityResponse({ description: 'No such organization', type: ProblemDetailsDto })
  @ApiConflictResponse({ description: 'The user holds that role in that scope already', type: ProblemDetailsDto })
  grant(@Body() body: GrantRoleRequestDto, @Caller() caller: KeyCaller): Promise<RoleBindingDto> {
    return this.roles.grant(body, actorOf(caller));
  }

  @Get()
  @ApiOperation({ summary: "The role bindings of a unified user (a merged uid answers with its survivor's)" })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['items'],
      properties: { items: { type: 'array', items: { $ref: getSchemaPath(RoleBindingDto) } } },
    },
  })
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  list(@Query() query: RoleBindingQueryDto): Promise<{ items: RoleBindingDto[] }> {
    return this.roles.list(query.uid);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a role binding' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  revoke(@Param('id', ParseUUIDPipe) id: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.roles.revoke(id, actorOf(caller));
  }
}
