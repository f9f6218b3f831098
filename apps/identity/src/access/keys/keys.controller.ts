import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiKeyDto,
  ApiPage,
  CreateKeyRequestDto,
  IssuedKeyDto,
  KeyListQueryDto,
  ProblemDetailsDto,
  RotateKeyRequestDto,
} from '@stdreg/contracts';
import { actorOf, type KeyCaller } from '../callers/caller';
import { Caller } from '../callers/caller.decorators';
import { PlatformKeyAuth } from '../callers/caller.decorators';
import { KeysService } from './keys.service';

@ApiTags('keys')
@PlatformKeyAuth()
@Controller('keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiUnprocessableEntityResponse({
    description:
      'An unknown organization, registry or supervisor, or registries of another organization (keys.organization_unknown, keys.registries_unknown, keys.registries_of_another_organization, keys.supervisor_unknown)',
    type: ProblemDetailsDto,
  })
  @ApiOperation({ summary: 'Create an app or platform key (the secret is shown once)' })
  @ApiCreatedResponse({ type: IssuedKeyDto })
  create(@Body() body: CreateKeyRequestDto, @Caller() caller: KeyCaller): Promise<IssuedKeyDto> {
    return this.keys.create(body, actorOf(caller));
  }

  @Get()
  @ApiOperation({ summary: 'List keys (never their secrets)' })
  @ApiPage(ApiKeyDto)
  list(@Query() query: KeyListQueryDto): Promise<{ items: ApiKeyDto[]; nextCursor: string | null }> {
    return this.keys.list(query);
  }

  @Get(':keyId')
  @ApiOkResponse({ type: ApiKeyDto })
  get(@Param('keyId', ParseUUIDPipe) keyId: string): Promise<ApiKeyDto> {
    return this.keys.get(keyId);
  }

  @Post(':keyId/rotate')
  @ApiConflictResponse({ description: 'The key is revoked (keys.revoked)', type: ProblemDetailsDto })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a new secret; the old one keeps working for the grace period',
    description: 'Answers once no replica relies on the previous state of the key (KEY_LEASE_MS after the change, 250 ms by default).',
  })
  @ApiOkResponse({ type: IssuedKeyDto })
  rotate(
    @Param('keyId', ParseUUIDPipe) keyId: string,
    @Body() body: RotateKeyRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<IssuedKeyDto> {
    return this.keys.rotate(keyId, body.gracePeriodSeconds, actorOf(caller));
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a key and all its secrets, effective at once on every replica; the unspent password links it issued stop working',
    description: 'Answers once no replica accepts the key any more (KEY_LEASE_MS after the change, 250 ms by default).',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  revoke(@Param('keyId', ParseUUIDPipe) keyId: string, @Caller() caller: KeyCaller): Promise<ApiKeyDto> {
    return this.keys.revoke(keyId, actorOf(caller));
  }
}
