import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AppLinkDto, AppLinkRequestDto, MergeDto, MergeUsersRequestDto, ProblemDetailsDto, UnifiedUserDto } from '@stdreg/contracts';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { PlatformKeyAuth } from '../../access/callers/caller.decorators';
import { MergesService } from './merges.service';
import { UnifiedUsersService } from './unified-users.service';

@ApiTags('unified-users')
@PlatformKeyAuth()
@Controller()
export class UnifiedUsersController {
  constructor(
    private readonly users: UnifiedUsersService,
    private readonly merges: MergesService,
  ) {}

  @Get('unified-users/:uid')
  @ApiOperation({ summary: 'Read a unified user; a merged uid answers with the user it was merged into' })
  @ApiOkResponse({ type: UnifiedUserDto })
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  get(@Param('uid', ParseUUIDPipe) uid: string): Promise<UnifiedUserDto> {
    return this.users.get(uid);
  }

  @Post('unified-users/merge')
  @ApiOperation({
    summary: 'Merge a unified user into another: the survivor keeps its uid and receives mirror records, app links and roles',
  })
  @ApiCreatedResponse({ type: MergeDto })
  @ApiNotFoundResponse({ description: 'A uid does not exist', type: ProblemDetailsDto })
  @ApiConflictResponse({ description: 'One of the users is merged already', type: ProblemDetailsDto })
  merge(@Body() body: MergeUsersRequestDto, @Caller() caller: KeyCaller): Promise<MergeDto> {
    return this.merges.merge(body.survivorUid, body.mergedUid, actorOf(caller));
  }

  @Post('merges/:mergeId/unmerge')
  @HttpCode(200)
  @ApiOperation({ summary: 'Undo exactly one recorded merge' })
  @ApiOkResponse({ type: MergeDto })
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  @ApiConflictResponse({ description: 'Undone already, or a later merge depends on it', type: ProblemDetailsDto })
  unmerge(@Param('mergeId', ParseUUIDPipe) mergeId: string, @Caller() caller: KeyCaller): Promise<MergeDto> {
    return this.merges.unmerge(mergeId, actorOf(caller));
  }

  @Post('unified-users/:uid/app-links')
  @ApiOperation({ summary: 'Link a unified user (or the user it was merged into) to a registered app' })
  @ApiCreatedResponse({ type: AppLinkDto })
  @ApiNotFoundResponse({ description: 'No such user, or no such (or a deleted) app', type: ProblemDetailsDto })
  @ApiConflictResponse({ description: 'Linked already', type: ProblemDetailsDto })
  linkApp(@Param('uid', ParseUUIDPipe) uid: string, @Body() body: AppLinkRequestDto, @Caller() caller: KeyCaller): Promise<AppLinkDto> {
    return this.users.linkApp(uid, body.registryId, actorOf(caller));
  }

  @Delete('unified-users/:uid/app-links/:registryId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove an operator link (links through mirror records stay)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  unlinkApp(@Param('uid', ParseUUIDPipe) uid: string, @Param('registryId') registryId: string, @Caller() caller: KeyCaller): Promise<void> {
    return this.users.unlinkApp(uid, registryId, actorOf(caller));
  }
}
