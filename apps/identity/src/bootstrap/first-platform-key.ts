import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { KeyClass } from '@stdreg/contracts';
import type { KeysService } from '../keys/keys.service';

export const BOOTSTRAP_KEY_FILE = 'bootstrap-platform-key';
const BOOTSTRAP_LOCK_KEY = 7_341_002;

/**
 * Creates the first platform key when there is no active one, and writes it to a file readable by
 * its owner only (never to a log). Replicas starting together create one key between them.
 * Returns the key's prefix, or null when a platform key already existed.
 */
export async function bootstrapPlatformKey(dataSource: DataSource, keys: KeysService, filePath: string): Promise<string | null> {
  return dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    const existing = await manager.query(`SELECT 1 FROM api_key WHERE class = 'platform' AND revoked_at IS NULL LIMIT 1`);
    if (existing.length > 0) return null;
    const issued = await keys.issue(
      manager,
      { name: 'bootstrap platform key', keyClass: KeyClass.Platform, organizationId: null },
      { kind: 'system', id: 'bootstrap' },
    );
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, `${issued.secret}\n`, { mode: 0o600 });
    return issued.key.prefix;
  });
}
