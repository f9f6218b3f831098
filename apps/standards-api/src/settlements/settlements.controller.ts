import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  EquityLedgerPageDto,
  EquityLedgerQueryDto,
  PageQueryDto,
  PostSettlementRunRequestDto,
  ProblemDetailsDto,
  SettlementConfirmationRequiredProblemDto,
  SettlementRunDto,
} from '@stdreg/contracts';
import { Authorize, Authorized } from '../callers/authorize.decorator';
import type { Caller } from '../callers/caller';
import { ApiPage } from '@stdreg/contracts';
import { SettlementPostingService } from './settlement-posting.service';
import { SettlementsService } from './settlements.service';
import { IdempotentWrites } from '../idempotency/idempotency.interceptor';

@ApiTags('settlements')
@ApiExtraModels(SettlementConfirmationRequiredProblemDto)
@Controller()
@IdempotentWrites()
export class SettlementsController {
  constructor(
    private readonly settlements: SettlementsService,
    private readonly posting: SettlementPostingService,
  ) {}

  @Post('split-projects/:id/settlement-runs')
  @Authorize('settlement-run:post', { project: 'id' })
  @ApiOperation({
    summary: "Post a settlement run: one period's actuals under the rule version in force at the period's end, in two steps",
    description:
      'A signed-in person with an approving role only; API keys (so every agent) are refused. Without confirmationToken: 428 with the challenge ' +
      '(period, gross, distributable, rule version, every allocation, in both languages) and a single-use token (10 minutes, bound to the caller ' +
      "and that posting). With it: 201, the run, and one entry per participant in its legal entity's equity ledger, in one transaction. A period is " +
      "settled once; a correction names the period's standing run in correctsRunId and reverses its entries entry by entry.",
  })
  @ApiCreatedResponse({ type: SettlementRunDto })
  @ApiResponse({
    status: 428,
    description: 'confirmation_required: review the challenge and call again with its token',
    type: SettlementConfirmationRequiredProblemDto,
  })
  @ApiConflictResponse({
    description:
      'The period is already settled (correct it instead); the corrected run was already corrected; the token is used or expired; the posting changed since the challenge',
    type: ProblemDetailsDto,
  })
  @ApiUnprocessableEntityResponse({
    description:
      'periodEnd in the future or before Rule Version 1; revenue or costs not amounts of the currency; correctsRunId of another period',
    type: ProblemDetailsDto,
  })
  postRun(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: PostSettlementRunRequestDto,
    @Authorized() auth: Caller,
  ): Promise<SettlementRunDto> {
    return this.posting.post(id, body, auth);
  }

  @Get('settlement-runs/:id')
  @Authorize('settlement-run:read')
  @ApiOperation({ summary: 'A posted settlement run' })
  @ApiOkResponse({ type: SettlementRunDto })
  run(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Caller): Promise<SettlementRunDto> {
    return this.settlements.getRun(id, auth);
  }

  @Get('split-projects/:id/settlement-runs')
  @Authorize('settlement-run:read', { project: 'id' })
  @ApiOperation({ summary: "The project's settlement runs in posting order" })
  @ApiPage(SettlementRunDto)
  runs(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Caller) {
    return this.settlements.listRuns(id, query, auth);
  }

  @Get('equity-ledgers/:legalEntityId')
  @Authorize('equity-ledger:read')
  @ApiOperation({
    summary:
      "A legal entity's equity ledger in the organization, oldest first, with a running balance per currency; empty (not 404) when nothing was posted",
  })
  @ApiOkResponse({ type: EquityLedgerPageDto })
  ledger(
    @Param('legalEntityId') legalEntityId: string,
    @Query() query: EquityLedgerQueryDto,
    @Authorized() auth: Caller,
  ): Promise<EquityLedgerPageDto> {
    return this.settlements.ledger(legalEntityId, query, auth);
  }
}
