// The rows of every table of every service database, read from outside the services (a PostgreSQL server's
// databases, or the embedded databases through their unix sockets).
import pg from 'pg';
import { IDENTITY_EVENT_TYPES } from '@stdreg/contracts';

/**
 * Rows a refusal is meant to write, or that no request writes, left out of the count: identity's audit log records attempts as well
 * as effects, and standards-api's write audit its own refusals. Refusals (outcome `denied` or `failure`), every use of a platform or agent key (`key.use`)
 * and every decision on a formal action (`decision:…`) are written before the request is validated, so
 * only the entries of effects must stay as they were.
 */
const REFUSALS_RECORDED: Record<string, string> = {
  audit_entry: `outcome = 'success' AND action <> 'key.use' AND action NOT LIKE 'decision:%'`,
  // standards-api records the writes it refuses itself (an agent where only a person may, a draft that is not the
  // caller's to discard) as `denied`.
  write_audit: `outcome = 'success'`,
  // Written in the background, not by the request being answered: standards-api's events as its relay hands
  // them over, `endpoint.disabled` by the dispatcher, and each delivery as the dispatcher fans an event out.
  event_outbox: `type IN (${[...IDENTITY_EVENT_TYPES, 'webhook.test'].map((type) => `'${type}'`).join(', ')})`,
  webhook_delivery: 'false',
};

/** Tables counted per value of a column, so that a report names what changed (which of the OpenID Provider's models). */
const COUNTED_BY: Record<string, string> = { oidc_model: 'model' };

export class RowCounts {
  private constructor(private readonly databases: { client: pg.Client; query: string }[]) {}

  static async open(connections: pg.ClientConfig[]): Promise<RowCounts> {
    const databases = [];
    for (const [index, connection] of connections.entries()) {
      const client = new pg.Client(connection);
      await client.connect();
      const tables = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      );
      // Both embedded databases are named `postgres`: the position tells them apart.
      const database = `${(await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name}#${index}`;
      const query = tables.rows
        .map(({ table_name }) => {
          const counted = REFUSALS_RECORDED[table_name];
          const where = counted ? ` WHERE ${counted}` : '';
          const by = COUNTED_BY[table_name];
          // A per-value count is 0 when no row has that value: the table's own count is kept beside it.
          const perValue = by
            ? ` UNION ALL SELECT '${database}.${table_name}.' || "${by}" AS t, count(*)::int AS n FROM "${table_name}"${where} GROUP BY "${by}"`
            : '';
          return `SELECT '${database}.${table_name}' AS t, count(*)::int AS n FROM "${table_name}"${where}${perValue}`;
        })
        .join(' UNION ALL ');
      databases.push({ client, query });
    }
    return new RowCounts(databases);
  }

  /** `database.table` → rows, for every table. */
  async read(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { client, query } of this.databases) {
      for (const { t, n } of (await client.query<{ t: string; n: number }>(query)).rows) counts[t] = n;
    }
    return counts;
  }

  /** The tables whose count differs, as `table: before → after`. */
  static changed(before: Record<string, number>, after: Record<string, number>): string[] {
    return Object.keys({ ...before, ...after })
      .filter((table) => (before[table] ?? 0) !== (after[table] ?? 0))
      .map((table) => `${table}: ${before[table] ?? 0} → ${after[table] ?? 0}`);
  }

  async close(): Promise<void> {
    await Promise.all(this.databases.map(({ client }) => client.end()));
  }
}
