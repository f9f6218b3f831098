import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EquityLedgerPageDto, EquityLedgerQueryDto, PageQueryDto, SettlementRunDto } from '@stdreg/contracts';
import { Authorize, Authorized, type Authorization } from '../authorization/authorize.decorator';
import { ApiPage } from '../openapi/api-decorators';
import { SettlementsService } from './settlements.service';

@ApiTags('settlements')
@Controller()
export class SettlementsController {
  constructor(private readonly settlements: SettlementsService) {}

  @Get('settlement-runs/:id')
  @Authorize('settlement-run:read')
  @ApiOperation({ summary: 'A posted settlement run' })
  @ApiOkResponse({ type: SettlementRunDto })
  run(@Param('id', ParseUUIDPipe) id: string, @Authorized() auth: Authorization): Promise<SettlementRunDto> {
    return this.settlements.getRun(id, auth);
  }

  @Get('split-projects/:id/settlement-runs')
  @Authorize('settlement-run:read')
  @ApiOperation({ summary: "The project's settlement runs, by id (posting order)" })
  @ApiPage(SettlementRunDto)
  runs(@Param('id', ParseUUIDPipe) id: string, @Query() query: PageQueryDto, @Authorized() auth: Authorization) {
    return this.settlements.listRuns(id, query, auth);
  }

  @Get('equity-ledgers/:legalEntityId')
  @Authorize('equity-ledger:read')
  @ApiOperation({
    summary: "A legal entity's equity ledger in the organization, oldest first, with a running balance per currency; empty (not 404) when nothing was posted",
  })
  @ApiOkResponse({ type: EquityLedgerPageDto })
  ledger(@Param('legalEntityId') legalEntityId: string, @Query() query: EquityLedgerQueryDto, @Authorized() auth: Authorization): Promise<EquityLedgerPageDto> {
    return this.settlements.ledger(legalEntityId, query, auth);
  }
}
