import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProblemDetailsDto, SyncRecordDto, SyncRequestDto, SyncResultDto } from '@stdreg/contracts';
import { type KeyCaller } from '../../access/callers/caller';
import { Caller } from '../../access/callers/caller.decorators';
import { KeyAuth } from '../../access/callers/caller.decorators';
import { SyncService } from './sync.service';

@ApiTags('sync')
@KeyAuth()
@ApiExtraModels(SyncRecordDto)
@Controller('sync')
export class SyncController {
  constructor(private readonly sync: SyncService) {}

  @Post()
  @ApiForbiddenResponse({ description: "An agent's key may not delete records (users.agent_key_refused)", type: ProblemDetailsDto })
  @HttpCode(200)
  @ApiOperation({
    summary: "Push a partner's user mirror for one registry: up to 1000 records in one transaction, idempotent, with a result per record",
  })
  @ApiOkResponse({ type: SyncResultDto })
  @ApiNotFoundResponse({ description: 'The registry does not exist or is not bound to the key', type: ProblemDetailsDto })
  apply(@Body() body: SyncRequestDto, @Caller() caller: KeyCaller): Promise<SyncResultDto> {
    return this.sync.apply(body, caller);
  }
}
