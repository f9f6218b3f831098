import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { currentRequestId, uuidv7 } from '@stdreg/server-kit';
import type { Authorization } from '../authorization/authorize.decorator';

/** The append-only record of every protected write: who, what, when; written in the write's own transaction. */
@Injectable()
export class WriteAudit {
  async record(
    manager: EntityManager,
    auth: Authorization,
    action: string,
    target: string,
    detail: Record<string, unknown>,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO write_audit (id, organization_id, subject_kind, subject_id, action, target, detail, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        uuidv7(),
        auth.organizationId,
        auth.subject.kind,
        auth.subject.id,
        action,
        target,
        JSON.stringify(detail),
        currentRequestId() ?? null,
      ],
    );
  }
}
