import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPage, AuditEntryDto, AuditQueryDto } from '@stdreg/contracts';
import { PlatformKeyAuth } from '../access/callers/caller.decorators';
import { AuditService } from '../platform/audit-trail/audit.service';

@ApiTags('audit')
@PlatformKeyAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: 'Read the append-only audit log, oldest first, with filters' })
  @ApiPage(AuditEntryDto)
  list(@Query() query: AuditQueryDto): Promise<{ items: AuditEntryDto[]; nextCursor: string | null }> {
    return this.audit.list(query);
  }
}
