import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACK_FILES, type ContentPack, type PackIssue } from './pack-types';
import { validatePack, type PackValidation } from './validate-pack';

// A guard against a wrong file, not a size policy: a pack a thousand times the sample's (issue 21: 100 000
// terms are about 45 MB of terms.json) must load.
const MAX_FILE_BYTES = 128 * 1024 * 1024;

/** Reads and validates a pack folder; unreadable or unparsable files are issues like any other. */
export async function loadPack(directory: string): Promise<PackValidation> {
  const files: Partial<Record<keyof ContentPack, unknown>> = {};
  const issues: PackIssue[] = [];
  for (const [key, file] of Object.entries(PACK_FILES) as [keyof ContentPack, string][]) {
    const filePath = path.join(directory, file);
    if (!existsSync(filePath)) continue;
    try {
      const raw = await readFile(filePath);
      if (raw.length > MAX_FILE_BYTES) {
        issues.push({ file, path: '', message: `file is larger than ${MAX_FILE_BYTES} bytes` });
        continue;
      }
      files[key] = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      issues.push({ file, path: '', message: `is not valid JSON: ${(error as Error).message}` });
    }
  }
  const validation = validatePack(files);
  if (issues.length === 0) return validation;
  const others = validation.ok ? [] : validation.issues.filter((i) => !issues.some((p) => p.file === i.file));
  return { ok: false, issues: [...issues, ...others] };
}

/** The sample pack that ships with the platform: next to the bundle in a build, in the library in source. */
export function samplePackDirectory(): string {
  const candidates = [fileURLToPath(new URL('./content-pack', import.meta.url)), fileURLToPath(new URL('../pack', import.meta.url))];
  return candidates.find((candidate) => existsSync(path.join(candidate, 'pack.json'))) ?? candidates[1]!;
}
