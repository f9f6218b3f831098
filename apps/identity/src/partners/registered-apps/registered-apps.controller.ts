import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPage, AppRegistrationDto, PageQueryDto, ProblemDetailsDto, RegisterAppRequestDto, RegisteredAppDto } from '@stdreg/contracts';
import { type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { AgentKeyRefused, KeyAuth } from '../../access/callers/caller.decorators';
import { agentKeyMayNotDelete, agentKeyRefused } from './registered-apps.errors';
import { RegisteredAppsService } from './registered-apps.service';

@ApiTags('apps')
@KeyAuth()
@Controller('apps')
export class RegisteredAppsController {
  constructor(private readonly apps: RegisteredAppsService) {}

  @Post()
  @AgentKeyRefused(agentKeyRefused)
  @ApiOperation({ summary: 'Register an app: assigns a registryId, binds it to the calling key, returns the OIDC client secret once' })
  @ApiCreatedResponse({ type: AppRegistrationDto })
  @ApiConflictResponse({ description: 'The key has registered maxApps apps already', type: ProblemDetailsDto })
  @ApiForbiddenResponse({
    description: "An agent's key: an app's sign-in client would receive people's own tokens",
    type: ProblemDetailsDto,
  })
  register(@Body() body: RegisterAppRequestDto, @Caller() caller: KeyCaller): Promise<AppRegistrationDto> {
    return this.apps.register(body, caller);
  }

  @Get()
  @ApiOperation({ summary: 'The apps bound to the calling key (all of them for a platform key)' })
  @ApiPage(RegisteredAppDto)
  list(@Query() query: PageQueryDto, @Caller() caller: KeyCaller): Promise<{ items: RegisteredAppDto[]; nextCursor: string | null }> {
    return this.apps.list(caller, query);
  }

  @Get(':registryId')
  @ApiOkResponse({ type: RegisteredAppDto })
  get(@Param('registryId') registryId: string, @Caller() caller: KeyCaller): Promise<RegisteredAppDto> {
    return this.apps.get(registryId, caller);
  }

  @Delete(':registryId')
  @AgentKeyRefused(agentKeyMayNotDelete)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: "An agent's key may not delete (apps.agent_key_refused)", type: ProblemDetailsDto })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an app: its client can no longer sign anyone in, and unspent password links for its users stop working',
  })
  delete(@Param('registryId') registryId: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.apps.delete(registryId, caller);
  }
}
