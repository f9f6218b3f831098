import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { WaitlistStatus } from '@stdreg/contracts';

export interface WaitlistRequestRow {
  id: string;
  organization_name: string;
  contact_name: string;
  contact_email: string;
  use_case: string;
  status: WaitlistStatus;
  created_at: Date;
  decided_at: Date | null;
  decision_reason: string | null;
  issued_key_id: string | null;
}

const REQUEST_COLUMNS =
  'id, organization_name, contact_name, contact_email, use_case, status, created_at, decided_at, decision_reason, issued_key_id';

/** Every query of waitlist requests. */
@Injectable()
export class WaitlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    request: { id: string; organizationName: string; contactName: string; contactEmail: string; useCase: string },
  ): Promise<WaitlistRequestRow> {
    const rows: WaitlistRequestRow[] = await manager.query(
      `INSERT INTO waitlist_request (id, organization_name, contact_name, contact_email, use_case)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${REQUEST_COLUMNS}`,
      [request.id, request.organizationName, request.contactName, request.contactEmail, request.useCase],
    );
    return rows[0]!;
  }

  async find(id: string): Promise<WaitlistRequestRow | null> {
    const rows: WaitlistRequestRow[] = await this.dataSource.query(`SELECT ${REQUEST_COLUMNS} FROM waitlist_request WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Locks the request row for the rest of the transaction, so only one decision is ever taken on it. */
  async lock(manager: EntityManager, id: string): Promise<WaitlistRequestRow | null> {
    const rows: WaitlistRequestRow[] = await manager.query(`SELECT ${REQUEST_COLUMNS} FROM waitlist_request WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  async list(status: WaitlistStatus, afterId: string | undefined, limit: number): Promise<WaitlistRequestRow[]> {
    return this.dataSource.query(
      `SELECT ${REQUEST_COLUMNS} FROM waitlist_request
        WHERE status = $1 AND ($2::uuid IS NULL OR id > $2)
        ORDER BY id LIMIT $3`,
      [status, afterId ?? null, limit],
    );
  }

  async decide(
    manager: EntityManager,
    id: string,
    decision: { status: Exclude<WaitlistStatus, 'pending'>; reason: string | null; issuedKeyId: string | null },
  ): Promise<WaitlistRequestRow> {
    // TypeORM answers an UPDATE with [returned rows, affected count].
    const [rows]: [WaitlistRequestRow[], number] = await manager.query(
      `UPDATE waitlist_request SET status = $2, decided_at = now(), decision_reason = $3, issued_key_id = $4
        WHERE id = $1 AND status = 'pending' RETURNING ${REQUEST_COLUMNS}`,
      [id, decision.status, decision.reason, decision.issuedKeyId],
    );
    return rows[0]!;
  }
}
