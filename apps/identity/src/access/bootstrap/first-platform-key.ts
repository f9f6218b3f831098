import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { KeysService } from '../keys/keys.service';

export const BOOTSTRAP_KEY_FILE = 'bootstrap-platform-key';
const BOOTSTRAP_LOCK_KEY = 7_341_002;

/**
 * Creates the first platform key when there is no active one, and writes it to a file readable by
 * its owner only (never to a log). Returns the key's prefix, or null when a platform key already existed.
 */
export async function bootstrapPlatformKey(keys: KeysService, filePath: string): Promise<string | null> {
  const issued = await keys.issueFirstPlatformKey(BOOTSTRAP_LOCK_KEY, async ({ secret }) => {
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, `${secret}\n`, { mode: 0o600 });
  });
  return issued?.key.prefix ?? null;
}
