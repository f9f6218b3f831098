import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ActorKind, AuditOutcome } from '@stdreg/contracts';

export interface AuditRecord {
  id: string;
  actorKind: ActorKind;
  actorId: string;
  action: string;
  target: string | null;
  /** The organization the entry concerns, when it concerns one. */
  organizationId: string | null;
  outcome: AuditOutcome;
  detail: Record<string, unknown>;
  requestId: string | null;
}

/** An entry as stored, with the time the database gave it. */
export interface AuditEntry extends AuditRecord {
  at: Date;
}

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  organization?: string | undefined;
  outcome?: AuditOutcome | undefined;
  from?: string | undefined;
  to?: string | undefined;
  afterId?: string | undefined;
  limit: number;
}

/** The append-only audit log (the database refuses UPDATE, DELETE and TRUNCATE). */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(record: AuditRecord, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO audit_entry (id, actor_kind, actor_id, action, target, outcome, detail, request_id, organization_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      columnValues(record),
    );
  }

  /**
   * Inserts the entry unless one of the same action and target was written in the last `windowSeconds`; answers
   * whether it did. Two calls at once may both insert: the window bounds the volume, it does not count.
   */
  async insertUnlessRecent(record: AuditRecord, windowSeconds: number): Promise<boolean> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO audit_entry (id, actor_kind, actor_id, action, target, outcome, detail, request_id, organization_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
        WHERE NOT EXISTS (SELECT 1 FROM audit_entry WHERE action = $4 AND target = $5 AND at > now() - make_interval(secs => $10::int))
       RETURNING id`,
      [...columnValues(record), windowSeconds],
    );
    return inserted.length > 0;
  }

  /**
   * Inserts the entry unless one of the same action and target was ever written; answers whether it did. A lock on
   * the pair, held to the commit, makes two replicas' first sightings of one target write one entry.
   */
  async insertUnlessRecorded(record: AuditRecord): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' ' || $2::text, 0))`, [record.action, record.target]);
      const inserted: unknown[] = await manager.query(
        `INSERT INTO audit_entry (id, actor_kind, actor_id, action, target, outcome, detail, request_id, organization_id)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
          WHERE NOT EXISTS (SELECT 1 FROM audit_entry WHERE action = $4 AND target = $5)
         RETURNING id`,
        columnValues(record),
      );
      return inserted.length > 0;
    });
  }

  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    return this.dataSource.query(
      `SELECT id, at, actor_kind AS "actorKind", actor_id AS "actorId", action, target, organization_id AS "organizationId", outcome, detail,
              request_id AS "requestId"
         FROM audit_entry
        WHERE ($1::text IS NULL OR actor_id = $1) AND ($2::text IS NULL OR action = $2) AND ($3::text IS NULL OR outcome = $3)
          AND ($4::timestamptz IS NULL OR at >= $4)
          AND ($5::timestamptz IS NULL OR at < date_trunc('milliseconds', $5::timestamptz) + interval '1 millisecond')
          AND ($6::uuid IS NULL OR id > $6) AND ($8::text IS NULL OR target = $8) AND ($9::uuid IS NULL OR organization_id = $9)
        ORDER BY id LIMIT $7`,
      [
        filter.actor ?? null,
        filter.action ?? null,
        filter.outcome ?? null,
        filter.from ?? null,
        filter.to ?? null,
        filter.afterId ?? null,
        filter.limit,
        filter.target ?? null,
        filter.organization ?? null,
      ],
    );
  }
}

/** An entry's values in the order of the insert's columns (id … organization_id). */
function columnValues(record: AuditRecord): unknown[] {
  return [
    record.id,
    record.actorKind,
    record.actorId,
    record.action,
    record.target,
    record.outcome,
    JSON.stringify(record.detail),
    record.requestId,
    record.organizationId,
  ];
}
