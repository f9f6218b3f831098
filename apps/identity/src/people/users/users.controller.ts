import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPage, CreateUserRequestDto, ProblemDetailsDto, UpdateUserRequestDto, UserDto, UserListQueryDto } from '@stdreg/contracts';
import { type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { AgentKeyRefused, KeyAuth } from '../../access/callers/caller.decorators';
import { agentKeyMayNotDelete } from './users.errors';
import { UsersService } from './users.service';

@ApiTags('users')
@KeyAuth()
@ApiNotFoundResponse({ description: 'The registry or user does not exist or is not bound to the key', type: ProblemDetailsDto })
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'The mirror records of a registry bound to the key, in id order' })
  @ApiPage(UserDto)
  list(@Query() query: UserListQueryDto, @Caller() caller: KeyCaller): Promise<{ items: UserDto[]; nextCursor: string | null }> {
    return this.users.list(query, caller);
  }

  @Post()
  @ApiOperation({ summary: 'Create a mirror record, linked to the unified user with its verified email or to a new one' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiConflictResponse({ description: 'The registry already has a record with this externalId', type: ProblemDetailsDto })
  create(@Body() body: CreateUserRequestDto, @Caller() caller: KeyCaller): Promise<UserDto> {
    return this.users.create(body, caller);
  }

  @Get(':id')
  @ApiOkResponse({ type: UserDto })
  get(@Param('id', ParseUUIDPipe) id: string, @Caller() caller: KeyCaller): Promise<UserDto> {
    return this.users.get(id, caller);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change fields of a mirror record; its link to a unified user stays' })
  @ApiOkResponse({ type: UserDto })
  update(@Param('id', ParseUUIDPipe) id: string, @Body() body: UpdateUserRequestDto, @Caller() caller: KeyCaller): Promise<UserDto> {
    return this.users.update(id, body, caller);
  }

  @Delete(':id')
  @AgentKeyRefused(agentKeyMayNotDelete)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: "An agent's key may not delete (users.agent_key_refused)", type: ProblemDetailsDto })
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a mirror record; its unified user goes too when nothing else refers to it' })
  delete(@Param('id', ParseUUIDPipe) id: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.users.delete(id, caller);
  }
}
