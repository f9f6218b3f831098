import { Controller, Get, Query } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPage, AuditEntryDto, AuditQueryDto, ProblemDetailsDto } from '@stdreg/contracts';
import type { KeyCaller } from '../access/callers/caller';
import { AgentKeyRefused, Caller, KeyAuth } from '../access/callers/caller.decorators';
import { agentKeyRefused } from './audit-log.errors';
import { AuditLogService } from './audit-log.service';

@ApiTags('audit')
@KeyAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly auditLog: AuditLogService) {}

  @Get()
  @AgentKeyRefused(agentKeyRefused)
  @ApiOperation({
    summary:
      "Read the append-only audit log, oldest first, with filters: every entry with a platform key, the key's organization's with an app key",
  })
  @ApiForbiddenResponse({
    description: "An agent's key (audit.agent_key_refused), or another organization named by an app key (audit.organization_not_own)",
    type: ProblemDetailsDto,
  })
  @ApiPage(AuditEntryDto)
  list(@Query() query: AuditQueryDto, @Caller() caller: KeyCaller): Promise<{ items: AuditEntryDto[]; nextCursor: string | null }> {
    return this.auditLog.list(query, caller);
  }
}
