import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { WaitlistStatus } from '@stdreg/contracts';

export interface WaitlistRequest {
  id: string;
  organizationName: string;
  contactName: string;
  contactEmail: string;
  useCase: string;
  status: WaitlistStatus;
  createdAt: Date;
  decidedAt: Date | null;
  decisionReason: string | null;
  issuedKeyId: string | null;
}

const REQUEST_COLUMNS = `id, organization_name AS "organizationName", contact_name AS "contactName", contact_email AS "contactEmail",
  use_case AS "useCase", status, created_at AS "createdAt", decided_at AS "decidedAt", decision_reason AS "decisionReason",
  issued_key_id AS "issuedKeyId"`;

/** Every query of waitlist requests. */
@Injectable()
export class WaitlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    request: { id: string; organizationName: string; contactName: string; contactEmail: string; useCase: string },
  ): Promise<WaitlistRequest> {
    const rows: WaitlistRequest[] = await manager.query(
      `INSERT INTO waitlist_request (id, organization_name, contact_name, contact_email, use_case)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${REQUEST_COLUMNS}`,
      [request.id, request.organizationName, request.contactName, request.contactEmail, request.useCase],
    );
    return rows[0]!;
  }

  async find(id: string): Promise<WaitlistRequest | null> {
    const rows: WaitlistRequest[] = await this.dataSource.query(`SELECT ${REQUEST_COLUMNS} FROM waitlist_request WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Locks the request row for the rest of the transaction, so only one decision is ever taken on it. */
  async lock(manager: EntityManager, id: string): Promise<WaitlistRequest | null> {
    const rows: WaitlistRequest[] = await manager.query(`SELECT ${REQUEST_COLUMNS} FROM waitlist_request WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async list(status: WaitlistStatus, afterId: string | undefined, limit: number): Promise<WaitlistRequest[]> {
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
  ): Promise<WaitlistRequest> {
    // TypeORM answers an UPDATE with [returned rows, affected count].
    const [rows]: [WaitlistRequest[], number] = await manager.query(
      `UPDATE waitlist_request SET status = $2, decided_at = now(), decision_reason = $3, issued_key_id = $4
        WHERE id = $1 AND status = 'pending' RETURNING ${REQUEST_COLUMNS}`,
      [id, decision.status, decision.reason, decision.issuedKeyId],
    );
    return rows[0]!;
  }
}
