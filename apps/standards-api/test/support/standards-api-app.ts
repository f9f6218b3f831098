import { DataSource } from 'typeorm';
import { startTestService, type RunningTestService } from '@stdreg/server-kit/testing';
import { STANDARDS_API } from '../../src/standards-api.service';

export type RunningStandardsApi = RunningTestService & { dataSource: DataSource };

/** The real standards-api on a database of its own (PostgreSQL with DATABASE_URL, PGlite otherwise). */
export async function startStandardsApi(env: Record<string, string> = {}): Promise<RunningStandardsApi> {
  const running = await startTestService(STANDARDS_API, { EVENT_RELAY: 'off', ...env });
  return { ...running, dataSource: running.app.get(DataSource) };
}
