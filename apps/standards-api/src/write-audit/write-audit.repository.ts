import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface WriteAuditEntry {
  id: string;
  organizationId: string;
  subjectKind: string;
  subjectId: string;
  /** For an agent: the uid of the person accountable for it. */
  supervisorId: string | null;
  action: string;
  target: string;
  detail: Record<string, unknown>;
  requestId: string | null;
  /** `denied`: a write refused after identity allowed it, recorded outside the write (which never happened). */
  outcome: 'success' | 'denied';
}

/** The write audit table: appended to, inside the audited write's transaction (a refusal's entry, outside any). */
@Injectable()
export class WriteAuditRepository {
  async append(manager: EntityManager, entry: WriteAuditEntry): Promise<void> {
    await manager.query(
      `INSERT INTO write_audit (id, organization_id, subject_kind, subject_id, supervisor_id, action, target, detail, request_id, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.id,
        entry.organizationId,
        entry.subjectKind,
        entry.subjectId,
        entry.supervisorId,
        entry.action,
        entry.target,
        JSON.stringify(entry.detail),
        entry.requestId,
        entry.outcome,
      ],
    );
  }
}
