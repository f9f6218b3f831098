import { Injectable } from '@nestjs/common';
import { KeyClass, type AuditEntryDto, type AuditQueryDto } from '@stdreg/contracts';
import type { KeyCaller } from '../access/callers/caller';
import { AuditService } from '../platform/audit-trail/audit.service';
import { organizationNotOwn } from './audit-log.errors';

/** Who reads which entries: a platform key every entry, an organization's app key the entries of its organization alone. */
@Injectable()
export class AuditLogService {
  constructor(private readonly audit: AuditService) {}

  list(query: AuditQueryDto, caller: KeyCaller): Promise<{ items: AuditEntryDto[]; nextCursor: string | null }> {
    if (caller.keyClass === KeyClass.Platform) return this.audit.list(query);
    const own = caller.organizationId;
    if (own === null || (query.organization !== undefined && query.organization !== own)) {
      throw organizationNotOwn(query.organization ?? 'none');
    }
    return this.audit.list({ ...query, organization: own });
  }
}
