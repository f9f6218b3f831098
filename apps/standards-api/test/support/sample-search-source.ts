import { compareVersions } from '@stdreg/contracts';
import { type ContentPack } from '@stdreg/registry-content';
import { indexedStandard } from '../../src/registry-release/registry-release';
import { byKey, roleDto, taskSpecDto, termDto } from '../../src/registry-release/registry-records';
import type { SearchIndexSource } from '../../src/search-index/registry-search-index';

async function* inBatches<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * A pack's records as a release's search index is built from them (each list in its key's order, the current version
 * of each section), `batchSize` records a batch (all in one by default); each call reads them anew.
 */
export function sampleSearchSource(pack: ContentPack, batchSize = Infinity): SearchIndexSource {
  const sectionIds = [...new Set(pack.standards.map((b) => b.sectionId))].sort();
  const standards = sectionIds.map((sectionId) => {
    const blocks = pack.standards.filter((b) => b.sectionId === sectionId).sort((a, b) => compareVersions(a.version, b.version));
    const current = blocks.find((b) => b.status === 'current') ?? blocks[blocks.length - 1]!;
    return indexedStandard(
      current,
      blocks.map((b) => b.version),
    );
  });
  return {
    terms: inBatches([...pack.terms].sort(byKey((t) => t.termId)).map(termDto), batchSize),
    standards: inBatches(standards, batchSize),
    roles: [...pack.roles].sort(byKey((r) => r.role)).map(roleDto),
    tasks: inBatches([...pack.tasks].sort(byKey((t) => t.taskCode)).map(taskSpecDto), batchSize),
  };
}
