import { createHash } from 'node:crypto';
import { canonicalJson } from '@stdreg/split-engine';
import type { ContentPack } from './pack-types';

/**
 * `sha256:<hex>` over the RFC 8785 canonical JSON of the whole content. Records are put in key
 * order first, so the digest depends on what the content says, not on how a file orders it.
 */
export function contentDigest(pack: ContentPack): string {
  const normalized = {
    pack: pack.pack,
    standards: sortBy(pack.standards, (b) => `${b.sectionId}@${b.version}`),
    terms: sortBy(pack.terms, (t) => t.termId),
    roles: sortBy(pack.roles, (r) => r.role),
    tasks: sortBy(pack.tasks, (t) => t.taskCode),
    policies: sortBy(pack.policies, (p) => p.policyId),
    brand: pack.brand,
    splitTemplates: sortBy(pack.splitTemplates, (t) => t.version),
  };
  return `sha256:${createHash('sha256').update(canonicalJson(normalized), 'utf8').digest('hex')}`;
}

function sortBy<T>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
