import { DataSource } from 'typeorm';
import { startTestService, type RunningTestService } from '@stdreg/server-kit/testing';
import { STANDARDS_API } from '../../src/standards-api.service';

export type RunningStandardsApi = RunningTestService & { dataSource: DataSource };

/** The real standards-api on a database of its own (PostgreSQL with DATABASE_URL, PGlite otherwise). */
export async function startStandardsApi(env: Record<string, string> = {}): Promise<RunningStandardsApi> {
  const running = await startTestService(STANDARDS_API, { EVENT_RELAY: 'off', ...env });
  return { ...running, dataSource: running.app.get(DataSource) };
}

/** Undoes the migrations applied after `name` and `name` itself: the schema as it was before that migration. */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last] = (await dataSource.query('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1')) as { name: string }[];
    if (!last) throw new Error(`migration ${name} was never applied`);
    await dataSource.undoLastMigration();
    if (last.name === name) return;
  }
}
