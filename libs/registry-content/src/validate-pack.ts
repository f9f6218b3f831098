import { PACK_SCHEMA } from './pack-schema';
import { checkCrossReferences } from './cross-references';
import { PACK_FILES, type ContentPack, type PackIssue } from './pack-types';

export type PackValidation = { ok: true; pack: ContentPack } | { ok: false; issues: PackIssue[] };

/**
 * Validates the parsed files of a pack (keyed like ContentPack). Cross-file rules run only once
 * every file is structurally sound, so each issue points at a real cause.
 */
export function validatePack(files: Partial<Record<keyof ContentPack, unknown>>): PackValidation {
  const issues: PackIssue[] = [];
  for (const key of Object.keys(PACK_SCHEMA) as (keyof ContentPack)[]) {
    const file = PACK_FILES[key];
    if (files[key] === undefined) {
      issues.push({ file, path: '', message: 'file is missing' });
      continue;
    }
    PACK_SCHEMA[key](files[key], '', (path, message) => issues.push({ file, path, message }));
  }
  if (issues.length > 0) return { ok: false, issues };
  const pack = files as ContentPack;
  const crossIssues = checkCrossReferences(pack);
  return crossIssues.length > 0 ? { ok: false, issues: crossIssues } : { ok: true, pack };
}

export function formatIssues(issues: PackIssue[]): string {
  return issues.map((i) => `${i.file}${i.path ? ` ${i.path}` : ''}: ${i.message}`).join('\n');
}
