import {
  compareSectionIds,
  compareVersions,
  type BrandSnapshotDto,
  type ManifestDto,
  type RoleDto,
  type SplitTemplateDto,
  type TaskSpecDto,
  type TermDto,
} from '@stdreg/contracts';
import type { StandardBlockVersion } from '@stdreg/registry-content';
import type { ContentReleaseEntity } from '../registry-storage/registry.entity';
import type { RegistryRepository } from '../registry-storage/registry.repository';
import type { ClauseConditions } from '../search-index/clause-conditions';
import { RegistrySearchIndex, type IndexedStandard } from '../search-index/registry-search-index';
import { UnreadableSearchIndexSnapshot, type StoredTextIndexes } from '../search-index/search-index-snapshot';
import {
  brandSnapshotDto,
  byKey,
  roleDto,
  splitTemplateDtos,
  standardBlockDto,
  taskSpecDto,
  termDto,
  type PolicyVersionRef,
} from './registry-records';
import { readStoredSearchIndex } from './stored-search-index';

export const API_VERSION = '2.0.0';
const CAPABILITIES = [
  'standards',
  'standard-versions',
  'terms',
  'term-search',
  'tasks',
  'roles',
  'policies',
  'policy-versions-at-date',
  'brand',
  'split-templates',
  'language-negotiation',
  'etag',
  'cursor-pagination',
];
/** Records read at once while the release loads: the most it holds of its terms, blocks or tasks at a time. */
const LOAD_BATCH = 1000;

/**
 * Where a release's text indexes came from: stored beside it, or built from its records, with the reason when one was
 * stored but could not be used (another format version, a missing chunk, a wrong checksum) and whether it is to be
 * replaced (it is of this build's format version).
 */
export type SearchIndexOrigin = { from: 'stored' } | { from: 'records'; problem: string | undefined; replacing: boolean };

/** A section of the standards: its versions in order and the one current. */
export interface Section {
  versions: string[];
  current: string;
}

/**
 * What standards-api keeps in memory of one release: its keys in list order (page cursors), each section's
 * versions, each policy's versions and dates, the search index, and the few records the format keeps few
 * (roles, split templates, the brand, the manifest). Every other record (blocks, terms, tasks, policies) stays
 * in the database and is read by key when a request needs it, so this does not grow with the release's
 * records, only with their keys.
 */
export class RegistryRelease {
  readonly sequence: string;
  readonly digest: string;

  private constructor(
    release: ContentReleaseEntity,
    readonly manifest: ManifestDto,
    readonly sectionIds: string[],
    private readonly sections: Map<string, Section>,
    readonly termIds: string[],
    readonly taskCodes: string[],
    readonly policyIds: string[],
    private readonly policyVersions: Map<string, PolicyVersionRef[]>,
    readonly roles: RoleDto[],
    private readonly roleByName: Map<string, RoleDto>,
    readonly brand: BrandSnapshotDto,
    readonly splitTemplates: SplitTemplateDto[],
    private readonly templateByVersion: Map<string, SplitTemplateDto>,
    /** The release's full-text index: terms, clauses of the current standards, roles. */
    readonly search: RegistrySearchIndex,
    /** Whether the index's text indexes were loaded as stored or built from the records (and why). */
    readonly searchIndexOrigin: SearchIndexOrigin,
  ) {
    this.sequence = release.sequence;
    this.digest = release.digest;
  }

  /**
   * Loads a release from the database: its keys at once, its terms, current blocks and tasks a batch at a time for
   * the index, whose text indexes are loaded as stored beside the release when they are (else built from the records).
   */
  static async load(repository: RegistryRepository, release: ContentReleaseEntity): Promise<RegistryRelease> {
    const sequence = release.sequence;
    const blockKeys = await repository.blockVersionKeys(sequence);
    const sections = new Map<string, Section & { hasCurrent: boolean }>();
    for (const key of blockKeys) {
      const section = sections.get(key.sectionId) ?? { versions: [], current: key.version, hasCurrent: false };
      section.versions.push(key.version);
      if (key.status === 'current') Object.assign(section, { current: key.version, hasCurrent: true });
      sections.set(key.sectionId, section);
    }
    for (const section of sections.values()) {
      section.versions.sort(compareVersions);
      // A section without a current version shows its latest.
      if (!section.hasCurrent) section.current = section.versions[section.versions.length - 1]!;
    }
    const sectionIds = [...sections.keys()].sort(compareSectionIds);
    const sectionMap = new Map(sectionIds.map((id) => [id, { versions: sections.get(id)!.versions, current: sections.get(id)!.current }]));

    const policyKeys = await repository.policyVersionKeys(sequence);
    const policyVersions = new Map<string, PolicyVersionRef[]>();
    for (const key of policyKeys) {
      const refs = policyVersions.get(key.policyId) ?? [];
      refs.push({ version: key.version, effectiveFrom: key.effectiveFrom, effectiveTo: key.effectiveTo ?? null });
      policyVersions.set(key.policyId, refs);
    }
    for (const refs of policyVersions.values()) refs.sort((a, b) => compareVersions(a.version, b.version));
    const policyIds = [...policyVersions.keys()].sort(byKey((id) => id));

    const roles = (await repository.roles(sequence)).sort(byKey((r) => r.role)).map(roleDto);
    const brand = await repository.brand(sequence);
    if (!brand) throw new Error('registry content is incomplete: no brand snapshot');
    const splitTemplates = splitTemplateDtos(await repository.splitTemplates(sequence));

    const termIds: string[] = [];
    const taskCodes: string[] = [];
    const buildSearch = (indexes?: StoredTextIndexes) => {
      termIds.length = 0;
      taskCodes.length = 0;
      return RegistrySearchIndex.build(
        {
          terms: mapBatches(repository.termBatches(sequence, LOAD_BATCH), (term): TermDto => {
            termIds.push(term.termId);
            return termDto(term);
          }),
          // The search index reads sections in code-unit order, as it always has: stored indexes were built from that order.
          standards: currentBlocks(repository, sequence, [...sectionIds].sort(byKey((id) => id)), sectionMap),
          roles,
          tasks: mapBatches(repository.taskBatches(sequence, LOAD_BATCH), (task): TaskSpecDto => {
            taskCodes.push(task.taskCode);
            return taskSpecDto(task);
          }),
        },
        indexes,
      );
    };
    const stored = await readStoredSearchIndex(repository, sequence);
    let search: RegistrySearchIndex;
    let searchIndexOrigin: SearchIndexOrigin;
    if (stored.indexes === undefined) {
      search = await buildSearch();
      searchIndexOrigin = { from: 'records', problem: stored.problem, replacing: stored.replacing };
    } else {
      try {
        search = await buildSearch(stored.indexes);
        searchIndexOrigin = { from: 'stored' };
      } catch (error) {
        if (!(error instanceof UnreadableSearchIndexSnapshot)) throw error;
        search = await buildSearch();
        searchIndexOrigin = { from: 'records', problem: error.message, replacing: true };
      }
    }

    const meta = release.meta;
    const manifest: ManifestDto = {
      apiVersion: API_VERSION,
      title: meta.title,
      description: meta.description,
      locales: [...meta.locales],
      capabilities: CAPABILITIES,
      counts: {
        standards: sectionIds.length,
        standardVersions: blockKeys.length,
        terms: termIds.length,
        tasks: taskCodes.length,
        roles: roles.length,
        policies: policyIds.length,
        policyVersions: policyKeys.length,
        splitTemplates: splitTemplates.length,
      },
      provenance: {
        packVersion: release.packVersion,
        formatVersion: release.formatVersion,
        publisher: release.publisher,
        importedAt: release.importedAt.toISOString(),
      },
      citationFormat: meta.citationFormat,
      policyCitationFormat: meta.policyCitationFormat,
      digest: release.digest,
    };
    return new RegistryRelease(
      release,
      manifest,
      sectionIds,
      sectionMap,
      termIds,
      taskCodes,
      policyIds,
      policyVersions,
      roles,
      new Map(roles.map((r) => [r.role, r])),
      brandSnapshotDto(brand),
      splitTemplates,
      new Map(splitTemplates.map((t) => [t.version, t])),
      search,
      searchIndexOrigin,
    );
  }

  section(sectionId: string): Section | undefined {
    return this.sections.get(sectionId);
  }

  hasTask(taskCode: string): boolean {
    return binarySearch(this.taskCodes, taskCode);
  }

  role(role: string): RoleDto | undefined {
    return this.roleByName.get(role);
  }

  /** A policy's versions in order, with their dates. */
  policyVersionsOf(policyId: string): PolicyVersionRef[] | undefined {
    return this.policyVersions.get(policyId);
  }

  /** The version of a policy in force on a date (YYYY-MM-DD). */
  policyInForce(policyId: string, date: string): PolicyVersionRef | undefined {
    return this.policyVersions.get(policyId)?.find((v) => v.effectiveFrom <= date && (v.effectiveTo === null || date <= v.effectiveTo));
  }

  /** Each policy's version in force on a date, or its first version when none is in force yet, in policy order. */
  policiesInForce(date: string): { policyId: string; version: string }[] {
    return this.policyIds.map((policyId) => ({
      policyId,
      version: (this.policyInForce(policyId, date) ?? this.policyVersions.get(policyId)![0]!).version,
    }));
  }

  splitTemplate(version: string): SplitTemplateDto | undefined {
    return this.templateByVersion.get(version);
  }

  /**
   * The records of the release this holds whole (roles, split templates, the brand, the manifest): the format
   * keeps them few. Blocks, terms, tasks and policies are read from the database; the index keeps of a term its
   * names and of a block its heading and clause ids (`search.size`).
   */
  get recordsHeld(): number {
    return this.roles.length + this.splitTemplates.length + 2;
  }
}

/** The current version of every section with its clauses' conditions, read a batch of sections at a time, in section order. */
async function* currentBlocks(
  repository: RegistryRepository,
  sequence: string,
  sectionIds: string[],
  sections: Map<string, Section>,
): AsyncGenerator<IndexedStandard[]> {
  for (let start = 0; start < sectionIds.length; start += LOAD_BATCH) {
    const ids = sectionIds.slice(start, start + LOAD_BATCH);
    const blocks = await repository.blockVersions(
      sequence,
      ids.map((sectionId) => ({ sectionId, version: sections.get(sectionId)!.current })),
    );
    yield blocks.sort(byKey((b) => b.sectionId)).map((source) => indexedStandard(source, sections.get(source.sectionId)!.versions));
  }
}

/** A current block as the search index is built from it: the block and its clauses' conditions, both languages together. */
export function indexedStandard(source: StandardBlockVersion, versions: string[]): IndexedStandard {
  const conditions = new Map<string, ClauseConditions>();
  for (const clause of source.clauses) {
    if (!clause.conditions) continue;
    const { requires, contradictedBy } = clause.conditions;
    conditions.set(clause.clauseId, {
      requires: [...requires.en, ...requires['zh-Hans']],
      contradictedBy: [...contradictedBy.en, ...contradictedBy['zh-Hans']],
    });
  }
  return { block: standardBlockDto(source, versions), conditions };
}

async function* mapBatches<T, U>(batches: AsyncIterable<T[]>, map: (item: T) => U): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}

function binarySearch(sorted: string[], key: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === key;
}
