import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  type ListQueryDto,
  type Locale,
  type PolicyDto,
  type PolicyReadQueryDto,
  type StandardBlockDto,
  type TaskSpecDto,
  type TermDto,
  type TermSearchQueryDto,
  type VersionedReadQueryDto,
} from '@stdreg/contracts';
import { formatIssues } from '@stdreg/registry-content';
import { JsonLogger } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { ContentImportService } from '../content-import/content-import.service';
import { BY_CODE_UNITS, BY_SECTION_ID, BY_VERSION, paginate, type KeyOrder, type RankedItems } from './cursor';
import { withTextView } from './language';
import { RegistryRepository } from '../registry-storage/registry.repository';
import { RegistryRelease } from '../registry-release/registry-release';
import { storeSearchIndex } from '../registry-release/stored-search-index';
import { SEARCH_INDEX_FORMAT_VERSION } from '../search-index/search-index-snapshot';
import { foldText } from '../search-index/search-text';
import { policyDto, standardBlockDto, standardSummaryDto, taskSpecDto, termDto } from '../registry-release/registry-records';
import { conflictingPolicyQuery, registryEmpty, registryNotFound } from './registry.errors';
import { represent, RepresentationCache, type Representation } from './representation';
import { giveBackUnusedHeap, heapGiveBackAfter, type HeapGiveBackWhenIdle, withHeapGrowthHeld } from './unused-heap';

const REPRESENTATION_CACHE_LIMITS = { entries: 4096, bytes: 32 * 1024 * 1024 };
/** How long after a release without a stored search index serves its index is stored: not before the service is ready. */
const SEARCH_INDEX_STORE_DELAY_MS = 1000;
/** How long after an import a serving replica waits for the import to store the new release's search index. */
const SEARCH_INDEX_WAIT_MS = 120_000;

/** The records of a release were asked for after the release's rows were deleted (two newer releases imported since). */
class ReleaseGone extends Error {}

/**
 * Serves the registry of the current release: its keys, small records and search index in memory
 * (RegistryRelease), every other record read from the database by key when a representation is first made.
 * Every response is serialized once per release and variant and kept in a cache bounded by bytes; a new
 * release (another import) is picked up by polling its sequence, and served once its index is built.
 */
@Injectable()
export class RegistryService implements OnModuleInit, OnModuleDestroy {
  private release: RegistryRelease | null = null;
  private cache = new RepresentationCache(REPRESENTATION_CACHE_LIMITS);
  private refreshTimer: NodeJS.Timeout | undefined;
  private giveBackTimer: NodeJS.Timeout | undefined;
  private heapGiveBack: HeapGiveBackWhenIdle | null = null;
  private refreshing: Promise<void> | null = null;
  private searchIndexStoreTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: RegistryRepository,
    private readonly contentImport: ContentImportService,
    @Inject(StandardsApiConfig) private readonly config: StandardsApiConfig,
    private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.CONTENT_AUTO_IMPORT) {
      const outcome = await this.contentImport.importIfEmpty(this.config.contentPackDirectory);
      if (outcome?.status === 'refused') {
        const shown = outcome.issues.slice(0, 5);
        const more = outcome.issues.length > shown.length ? `\n(and ${outcome.issues.length - shown.length} more)` : '';
        throw new Error(`the content pack in ${this.config.contentPackDirectory} was refused:\n${formatIssues(shown)}${more}`);
      }
      if (outcome) this.logger.event('info', 'imported the content pack on first start', { ...outcome }, 'RegistryService');
    }
    await this.refresh();
    this.refreshTimer = setInterval(() => void this.refreshIfChanged(), this.config.CONTENT_REFRESH_SECONDS * 1000);
    this.refreshTimer.unref();
    this.heapGiveBack = heapGiveBackAfter(this.config.HEAP_GIVE_BACK_AFTER_MB);
    if (this.heapGiveBack !== null) {
      this.giveBackTimer = setInterval(() => this.giveBackHeapWhenIdle(), 1000);
      this.giveBackTimer.unref();
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.refreshTimer);
    clearInterval(this.giveBackTimer);
    clearTimeout(this.searchIndexStoreTimer);
  }

  /** The representations kept now: how many and their bodies' bytes. */
  get cachedRepresentations(): { entries: number; bytes: number } {
    return this.cache.size;
  }

  hasSplitTemplate(version: string): boolean {
    return this.release?.splitTemplate(version) !== undefined;
  }

  /** The current release (its search index among it), or null before any content. */
  currentRelease(): RegistryRelease | null {
    return this.release;
  }

  get isLoaded(): boolean {
    return this.release !== null;
  }

  /**
   * Reloads the release when another one has become current, once its search index is stored (or it was imported
   * SEARCH_INDEX_WAIT_MS ago): the one serving serves meanwhile.
   */
  async refreshIfChanged(): Promise<void> {
    try {
      const sequence = await this.repository.currentReleaseSequence();
      if (sequence === (this.release?.sequence ?? null)) return;
      if (sequence !== null && this.release !== null && (await this.awaitsStoredSearchIndex(sequence))) return;
      await this.refresh();
    } catch (error) {
      this.logger.warn(`registry refresh failed: ${(error as Error).message}`, 'RegistryService');
    }
  }

  /**
   * Whether a release just imported has no stored search index yet: the import stores it once the release has
   * committed (15-50 s later at full size), and a replica serving another release waits for it rather than build the
   * same index beside the import, until SEARCH_INDEX_WAIT_MS after the import (an older build's import stores none).
   */
  private async awaitsStoredSearchIndex(sequence: string): Promise<boolean> {
    const release = await this.repository.currentRelease();
    if (release?.sequence !== sequence || Date.now() - release.importedAt.getTime() >= SEARCH_INDEX_WAIT_MS) return false;
    const stored = await this.repository.storedSearchIndexes(sequence);
    return !stored.some((header) => header.formatVersion === SEARCH_INDEX_FORMAT_VERSION);
  }

  /**
   * The terms of a release with these ids, in their order, read from the database. A release whose records are
   * gone (two newer ones were imported before this replica switched) is switched first and asked again.
   */
  async termRecords(release: RegistryRelease, termIds: readonly string[]): Promise<TermDto[]> {
    const found = new Map((await this.repository.terms(release.sequence, termIds)).map((t) => [t.termId, t]));
    return termIds.map((id) => termDto(found.get(id) ?? releaseGone()));
  }

  /** The current versions of these sections of a release, in their order, read from the database. */
  async currentBlockRecords(release: RegistryRelease, sectionIds: readonly string[]): Promise<StandardBlockDto[]> {
    const keys = sectionIds.map((sectionId) => ({ sectionId, version: release.section(sectionId)!.current }));
    const found = new Map((await this.repository.blockVersions(release.sequence, keys)).map((b) => [b.sectionId, b]));
    return sectionIds.map((id) => standardBlockDto(found.get(id) ?? releaseGone(), release.section(id)!.versions));
  }

  /**
   * Runs a read of the records of the current release; when they are gone (ReleaseGone), switches to the
   * release now current and runs it again on that one.
   */
  async withCurrentRelease<T>(read: (release: RegistryRelease) => Promise<T>): Promise<T> {
    const release = this.release ?? throwEmpty();
    try {
      return await read(release);
    } catch (error) {
      if (!(error instanceof ReleaseGone)) throw error;
      await this.refresh();
      const current = this.release ?? throwEmpty();
      if (current === release) throw new Error(`the records of release ${release.sequence} are missing from the database`);
      return read(current);
    }
  }

  /** Loads the current release, once however many ask at the same time; the old one serves until the new one is ready. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const stored = await this.repository.currentRelease();
    const build = () => (stored ? RegistryRelease.load(this.repository, stored) : Promise.resolve(null));
    let release: RegistryRelease | null;
    if (this.release === null) {
      // The first release is built as fast as V8 will.
      release = await build();
    } else {
      // A later one beside the release serving, in less memory: the serving release's cache goes first (it
      // serves on from the database meanwhile) and the heap its reads grew is given back before the build
      // grows it again, so the switch's peak is the serving index and the new one, not a burst's heap besides.
      this.cache = new RepresentationCache(REPRESENTATION_CACHE_LIMITS);
      this.giveBackHeap('gave back the heap before building the next release', this.release.sequence);
      release = await withHeapGrowthHeld(build);
    }
    this.release = release;
    this.cache = new RepresentationCache(REPRESENTATION_CACHE_LIMITS);
    // The build's garbage and the release before (once the reads still on it end) are given back now, not
    // when V8 next finds the process idle: at full size half the process's memory (docs/performance.md).
    this.giveBackHeap('gave back the heap the release load left unused', release?.sequence ?? null);
    if (release !== null) this.storeSearchIndexIfBuilt(release);
  }

  /**
   * A release whose index was built from its records (none stored, or one that did not read) has it stored once
   * it serves, for the next replica and the next start; another replica may store it first, which is fine.
   */
  private storeSearchIndexIfBuilt(release: RegistryRelease): void {
    const origin = release.searchIndexOrigin;
    if (origin.from === 'stored') return;
    if (origin.problem !== undefined) {
      this.logger.warn(
        `the stored search index of release ${release.sequence} was not used (${origin.problem}): built from the records`,
        'RegistryService',
      );
    }
    clearTimeout(this.searchIndexStoreTimer);
    this.searchIndexStoreTimer = setTimeout(() => {
      const started = performance.now();
      storeSearchIndex(this.repository, release.sequence, release.search, { replacing: origin.replacing }).then(
        (stored) =>
          this.logger.event(
            'info',
            stored ? 'stored the search index of the release' : 'the search index of the release was stored already',
            { sequence: release.sequence, milliseconds: Math.round(performance.now() - started) },
            'RegistryService',
          ),
        (error: unknown) =>
          this.logger.warn(
            `storing the search index of release ${release.sequence} failed: ${(error as Error).message}`,
            'RegistryService',
          ),
      );
    }, SEARCH_INDEX_STORE_DELAY_MS);
    this.searchIndexStoreTimer.unref();
  }

  private giveBackHeap(message: string, sequence: string | null): void {
    const before = process.memoryUsage();
    const started = performance.now();
    giveBackUnusedHeap();
    const after = process.memoryUsage();
    this.heapGiveBack?.reset();
    this.logger.event(
      'info',
      message,
      {
        sequence,
        milliseconds: Math.round(performance.now() - started),
        rssMbBefore: Math.round(before.rss / 2 ** 20),
        rssMbAfter: Math.round(after.rss / 2 ** 20),
        heapTotalMbAfter: Math.round(after.heapTotal / 2 ** 20),
      },
      'RegistryService',
    );
  }

  /** Gives back the heap a burst of reads grew once the process is idle (HeapGiveBackWhenIdle), and says so with the pause it cost. */
  private giveBackHeapWhenIdle(): void {
    if (this.refreshing || this.heapGiveBack === null) return;
    const given = this.heapGiveBack.check();
    if (!given) return;
    this.logger.event(
      'info',
      'gave back the heap a burst of reads left unused',
      {
        milliseconds: Math.round(given.milliseconds),
        heapTotalMbBefore: Math.round(given.heapTotalBefore / 2 ** 20),
        heapTotalMbAfter: Math.round(given.heapTotalAfter / 2 ** 20),
        rssMbAfter: Math.round(process.memoryUsage().rss / 2 ** 20),
      },
      'RegistryService',
    );
  }

  manifest(locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(`manifest|${locale}`, (r) => withTextView(r.manifest, locale), locale);
  }

  standards(query: ListQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    return this.page(
      'standards',
      query,
      locale,
      (r) => r.sectionIds,
      async (r, sectionIds) => {
        const keys = sectionIds.map((sectionId) => ({ sectionId, version: r.section(sectionId)!.current }));
        const found = new Map((await this.repository.blockVersions(r.sequence, keys)).map((b) => [b.sectionId, b]));
        return sectionIds.map((id) => standardSummaryDto(found.get(id) ?? releaseGone(), r.section(id)!.versions));
      },
      'standards',
      BY_SECTION_ID,
    );
  }

  standard(sectionId: string, query: VersionedReadQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(
      `standard|${sectionId}|${query.version}|${locale}`,
      async (r) => {
        const section = r.section(sectionId);
        const version = query.version ?? section?.current;
        if (!section || !section.versions.includes(version!)) {
          throw registryNotFound(section ? `Version ${query.version} of standards block ${sectionId}` : `Standards block ${sectionId}`);
        }
        const [block] = await this.repository.blockVersions(r.sequence, [{ sectionId, version: version! }]);
        return withTextView(standardBlockDto(block ?? releaseGone(), section.versions), locale);
      },
      locale,
    );
  }

  terms(query: TermSearchQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    if (query.q === undefined) {
      return this.page(
        'terms',
        query,
        locale,
        (r) => r.termIds,
        (r, termIds) => this.termRecords(r, termIds),
      );
    }
    // Ranked by relevance: a page's cursor is the rank of its last term, for this query in this release only (another
    // release ranks its own terms, so a rank of an earlier one would skip or repeat hits: such a cursor is a 400).
    // The ranking is made from the folded query alone, so spellings that fold alike (full width, decomposed accents,
    // traditional characters, invisible ones) are one list: the same bytes, ETag and cursors.
    const q = query.q;
    const folded = foldText(q);
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    return this.cached(
      `terms?q=${folded}|${limit}|${query.cursor}|${locale}`,
      async (r) => {
        const ranked = r.search.rankTerms(q);
        const ranks: RankedItems<{ rank: string; termId: string }> = {
          at: (rank) => {
            const termId = ranked.termIdAt(rank);
            return termId === undefined ? undefined : { rank: rankKey(rank), termId };
          },
          indexAfter: (key) => Number(key) + 1,
        };
        const page = paginate(`terms@${r.sequence}?q=${folded}`, ranks, (item) => item.rank, { limit, cursor: query.cursor }, BY_RANK);
        const terms = await this.termRecords(
          r,
          page.items.map((item) => item.termId),
        );
        return { items: terms.map((term) => withTextView(term, locale)), nextCursor: page.nextCursor };
      },
      locale,
    );
  }

  tasks(query: ListQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    return this.page(
      'tasks',
      query,
      locale,
      (r) => r.taskCodes,
      (r, taskCodes) => this.taskRecords(r, taskCodes),
    );
  }

  task(taskCode: string, locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(
      `task|${taskCode}|${locale}`,
      async (r) => {
        if (!r.hasTask(taskCode)) throw registryNotFound(`Task ${taskCode}`);
        const [task] = await this.taskRecords(r, [taskCode]);
        return withTextView(task!, locale);
      },
      locale,
    );
  }

  roles(query: ListQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    return this.page(
      'roles',
      query,
      locale,
      (r) => r.roles.map((role) => role.role),
      async (r, names) => names.map((name) => r.role(name)!),
    );
  }

  role(role: string, locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(`role|${role}|${locale}`, (r) => withTextView(r.role(role) ?? throwNotFound(`Role ${role}`), locale), locale);
  }

  policies(query: ListQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    const today = utcDate(new Date());
    return this.page(
      `policies@${today}`,
      query,
      locale,
      (r) => r.policyIds,
      async (r, policyIds) => {
        const inForce = new Map(r.policiesInForce(today).map((p) => [p.policyId, p.version]));
        return this.policyRecords(
          r,
          policyIds.map((policyId) => ({ policyId, version: inForce.get(policyId)! })),
        );
      },
      'policies',
    );
  }

  policy(policyId: string, query: PolicyReadQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    if (query.version !== undefined && query.at !== undefined) throw conflictingPolicyQuery();
    const at = query.version === undefined ? (query.at ?? utcDate(new Date())) : undefined;
    return this.cached(
      `policy|${policyId}|${query.version}|${at}|${locale}`,
      async (r) => {
        const versions = r.policyVersionsOf(policyId) ?? throwNotFound(`Policy ${policyId}`);
        const found = query.version !== undefined ? versions.find((v) => v.version === query.version) : r.policyInForce(policyId, at!);
        if (!found) {
          throw registryNotFound(
            query.version !== undefined
              ? `Version ${query.version} of policy ${policyId}`
              : `A version of policy ${policyId} in force on ${at}`,
          );
        }
        const [policy] = await this.policyRecords(r, [{ policyId, version: found.version }]);
        return withTextView(policy!, locale);
      },
      locale,
    );
  }

  brand(locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(`brand|${locale}`, (r) => withTextView(r.brand, locale), locale);
  }

  splitTemplates(query: ListQueryDto, locale: Locale | null): Representation | Promise<Representation> {
    return this.page(
      'split-templates',
      query,
      locale,
      (r) => r.splitTemplates.map((t) => t.version),
      async (r, versions) => versions.map((version) => r.splitTemplate(version)!),
      'split-templates',
      BY_VERSION,
    );
  }

  splitTemplate(version: string, locale: Locale | null): Representation | Promise<Representation> {
    return this.cached(
      `split-template|${version}|${locale}`,
      (r) => withTextView(r.splitTemplate(version) ?? throwNotFound(`Split template ${version}`), locale),
      locale,
    );
  }

  private async taskRecords(release: RegistryRelease, taskCodes: readonly string[]): Promise<TaskSpecDto[]> {
    const found = new Map((await this.repository.tasks(release.sequence, taskCodes)).map((t) => [t.taskCode, t]));
    return taskCodes.map((code) => taskSpecDto(found.get(code) ?? releaseGone()));
  }

  /** Policy versions by key, each with every version of its policy. */
  private async policyRecords(release: RegistryRelease, keys: readonly { policyId: string; version: string }[]): Promise<PolicyDto[]> {
    const rows = await this.repository.policyVersions(
      release.sequence,
      keys.map((k) => k.policyId),
    );
    const found = new Map(rows.map((row) => [`${row.policyId}@${row.doc.version}`, row.doc]));
    return keys.map(({ policyId, version }) =>
      policyDto(policyId, found.get(`${policyId}@${version}`) ?? releaseGone(), release.policyVersionsOf(policyId)!),
    );
  }

  /**
   * A representation of the current release from the cache, or made by `build` (from memory, or from records
   * read from the database) and kept. A build whose release's records are gone runs again on the release now
   * current, under the same key in that release's cache.
   */
  private cached(
    key: string,
    build: (release: RegistryRelease) => unknown,
    locale: Locale | null,
  ): Representation | Promise<Representation> {
    const release = this.release ?? throwEmpty();
    return this.cache.get(key, () => {
      const value = build(release);
      if (!(value instanceof Promise)) return represent(value, locale);
      return value.then(
        (made) => represent(made, locale),
        async (error: unknown) => {
          if (!(error instanceof ReleaseGone)) throw error;
          await this.refresh();
          if (this.release === release) throw new Error(`the records of release ${release.sequence} are missing from the database`);
          return this.cached(key, build, locale);
        },
      );
    });
  }

  /** A page of a key-ordered list of the release, its items made from the page's keys. */
  private page<T extends object>(
    list: string,
    query: ListQueryDto,
    locale: Locale | null,
    keys: (release: RegistryRelease) => string[],
    items: (release: RegistryRelease, keys: string[]) => Promise<T[]>,
    cursorList = list,
    order: KeyOrder = BY_CODE_UNITS,
  ): Representation | Promise<Representation> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    return this.cached(
      `${list}|${limit}|${query.cursor}|${locale}`,
      async (r) => {
        const page = paginate(cursorList, keys(r), (key) => key, { limit, cursor: query.cursor }, order);
        const records = await items(r, page.items);
        return { items: records.map((item) => withTextView(item, locale)), nextCursor: page.nextCursor };
      },
      locale,
    );
  }
}

function throwNotFound(what: string): never {
  throw registryNotFound(what);
}

function throwEmpty(): never {
  throw registryEmpty();
}

function releaseGone(): never {
  throw new ReleaseGone();
}

/** Ranks as `rankKey` spells them: a cursor naming anything else is a 400 naming `cursor`. */
const BY_RANK: KeyOrder = { compare: BY_CODE_UNITS.compare, pattern: /^[0-9]{6,9}$/ };

/** A rank as a key that sorts as the rank does. */
function rankKey(rank: number): string {
  return String(rank).padStart(6, '0');
}

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
