import { Body, Controller, Get, HttpCode, Ip, Param, ParseUUIDPipe, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  ApiPage,
  ApproveWaitlistRequestDto,
  CreateWaitlistRequestDto,
  ProblemDetailsDto,
  RejectWaitlistRequestDto,
  WaitlistApprovalDto,
  WaitlistListQueryDto,
  WaitlistRequestDto,
} from '@stdreg/contracts';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { PlatformKeyAuth } from '../../access/callers/caller.decorators';
import { IpRateLimitGuard } from '../../platform/rate-limit/rate-limit.guard';
import { WaitlistService } from './waitlist.service';

const notPending = { description: 'The request was already approved or rejected', type: ProblemDetailsDto };

@ApiTags('waitlist')
@Controller('waitlist')
export class WaitlistController {
  constructor(private readonly waitlist: WaitlistService) {}

  @Post()
  @UseGuards(IpRateLimitGuard)
  @ApiOperation({ summary: 'Ask for an app key (anonymous, rate limited per client IP); a platform operator decides' })
  @ApiCreatedResponse({ type: WaitlistRequestDto })
  @ApiTooManyRequestsResponse({ description: 'Too many requests from this IP (Retry-After says when to retry)', type: ProblemDetailsDto })
  submit(@Body() body: CreateWaitlistRequestDto, @Ip() clientIp: string): Promise<WaitlistRequestDto> {
    return this.waitlist.submit(body, clientIp);
  }

  @Get()
  @PlatformKeyAuth()
  @ApiOperation({ summary: 'Waitlist requests of one status (default pending), oldest first' })
  @ApiPage(WaitlistRequestDto)
  list(@Query() query: WaitlistListQueryDto): Promise<{ items: WaitlistRequestDto[]; nextCursor: string | null }> {
    return this.waitlist.list(query);
  }

  @Get(':requestId')
  @PlatformKeyAuth()
  @ApiOkResponse({ type: WaitlistRequestDto })
  @ApiNotFoundResponse({ type: ProblemDetailsDto })
  get(@Param('requestId', ParseUUIDPipe) requestId: string): Promise<WaitlistRequestDto> {
    return this.waitlist.get(requestId);
  }

  @Post(':requestId/approve')
  @HttpCode(200)
  @PlatformKeyAuth()
  @ApiOperation({ summary: 'Approve: creates the organization (unless one is given), issues its App key (secret shown once)' })
  @ApiOkResponse({ type: WaitlistApprovalDto })
  @ApiConflictResponse(notPending)
  @ApiUnprocessableEntityResponse({ description: 'organizationId names no organization', type: ProblemDetailsDto })
  approve(
    @Param('requestId', ParseUUIDPipe) requestId: string,
    @Body() body: ApproveWaitlistRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<WaitlistApprovalDto> {
    return this.waitlist.approve(requestId, body, actorOf(caller));
  }

  @Post(':requestId/reject')
  @HttpCode(200)
  @PlatformKeyAuth()
  @ApiOkResponse({ type: WaitlistRequestDto })
  @ApiConflictResponse(notPending)
  reject(
    @Param('requestId', ParseUUIDPipe) requestId: string,
    @Body() body: RejectWaitlistRequestDto,
    @Caller() caller: KeyCaller,
  ): Promise<WaitlistRequestDto> {
    return this.waitlist.reject(requestId, body.reason, actorOf(caller));
  }
}
