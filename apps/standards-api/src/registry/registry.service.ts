import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  type ListQueryDto,
  type Locale,
  type PolicyReadQueryDto,
  type TermDto,
  type TermSearchQueryDto,
  type VersionedReadQueryDto,
} from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { ContentImportService } from '../content-import/content-import.service';
import { paginate, type ItemsByPosition, type RankedItems } from './cursor';
import { withTextView } from './language';
import { RegistryRepository } from '../registry-storage/registry.repository';
import { RegistrySnapshot } from './registry-snapshot';
import { conflictingPolicyQuery, registryEmpty, registryNotFound } from './registry.errors';
import { represent, RepresentationCache, type Representation } from './representation';

const REPRESENTATION_CACHE_LIMITS = { entries: 4096, bytes: 64 * 1024 * 1024 };

/**
 * Serves the registry from a snapshot of the current release. Every response is serialized once
 * per release and variant; a new release (another import) is picked up by polling its sequence.
 */
@Injectable()
export class RegistryService implements OnModuleInit, OnModuleDestroy {
  private snapshot: RegistrySnapshot | null = null;
  private cache = new RepresentationCache(REPRESENTATION_CACHE_LIMITS);
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: RegistryRepository,
    private readonly contentImport: ContentImportService,
    @Inject(StandardsApiConfig) private readonly config: StandardsApiConfig,
    private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.CONTENT_AUTO_IMPORT) {
      const outcome = await this.contentImport.importIfEmpty(this.config.contentPackDirectory);
      if (outcome?.status === 'refused') throw new Error(`the content pack was refused: ${outcome.issues.length} issues`);
      if (outcome) this.logger.event('info', 'imported the content pack on first start', { ...outcome }, 'RegistryService');
    }
    await this.refresh();
    this.refreshTimer = setInterval(() => void this.refreshIfChanged(), this.config.CONTENT_REFRESH_SECONDS * 1000);
    this.refreshTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.refreshTimer);
  }

  hasSplitTemplate(version: string): boolean {
    return this.snapshot?.splitTemplate(version) !== undefined;
  }

  /** The current release as a whole (its search index among it), or null before any content. */
  currentSnapshot(): RegistrySnapshot | null {
    return this.snapshot;
  }

  get isLoaded(): boolean {
    return this.snapshot !== null;
  }

  /** Reloads the snapshot when another release has become current. */
  async refreshIfChanged(): Promise<void> {
    try {
      const sequence = await this.repository.currentReleaseSequence();
      if (sequence !== (this.snapshot?.sequence ?? null)) await this.refresh();
    } catch (error) {
      this.logger.warn(`registry refresh failed: ${(error as Error).message}`, 'RegistryService');
    }
  }

  private async refresh(): Promise<void> {
    const stored = await this.repository.loadCurrent();
    this.snapshot = stored ? new RegistrySnapshot(stored) : null;
    this.cache = new RepresentationCache(REPRESENTATION_CACHE_LIMITS);
  }

  manifest(locale: Locale | null): Representation {
    return this.cached(`manifest|${locale}`, (s) => withTextView(s.manifest, locale), locale);
  }

  standards(query: ListQueryDto, locale: Locale | null): Representation {
    return this.page(
      'standards',
      query,
      locale,
      (s) => s.standards,
      (b) => b.sectionId,
    );
  }

  standard(sectionId: string, query: VersionedReadQueryDto, locale: Locale | null): Representation {
    return this.cached(
      `standard|${sectionId}|${query.version}|${locale}`,
      (s) => {
        const block = s.standardBlock(sectionId, query.version);
        if (block) return withTextView(block, locale);
        throw registryNotFound(
          s.hasSection(sectionId) ? `Version ${query.version} of standards block ${sectionId}` : `Standards block ${sectionId}`,
        );
      },
      locale,
    );
  }

  terms(query: TermSearchQueryDto, locale: Locale | null): Representation {
    if (query.q === undefined) {
      return this.page(
        'terms',
        query,
        locale,
        (s) => s.terms,
        (t) => t.termId,
      );
    }
    // Ranked by relevance: a page's cursor is the rank of its last term, for this query only.
    const q = query.q;
    const ranked = (s: RegistrySnapshot): RankedItems<{ rank: string; term: TermDto }> => {
      const terms = s.search.rankTerms(q);
      return {
        at: (rank) => {
          const hit = terms.hitAt(rank);
          return hit && { rank: rankKey(rank), term: hit.term };
        },
        // A key that is no rank (a cursor of no page of this list) starts past the end, as it sorts after every rank.
        indexAfter: (key) => (/^\d{1,9}$/.test(key) ? Number(key) + 1 : Number.MAX_SAFE_INTEGER),
      };
    };
    return this.page(
      `terms?q=${q}`,
      query,
      locale,
      ranked,
      (r) => r.rank,
      `terms?q=${q}`,
      (r) => r.term,
    );
  }

  tasks(query: ListQueryDto, locale: Locale | null): Representation {
    return this.page(
      'tasks',
      query,
      locale,
      (s) => s.tasks,
      (t) => t.taskCode,
    );
  }

  task(taskCode: string, locale: Locale | null): Representation {
    return this.cached(
      `task|${taskCode}|${locale}`,
      (s) => withTextView(s.task(taskCode) ?? throwNotFound(`Task ${taskCode}`), locale),
      locale,
    );
  }

  roles(query: ListQueryDto, locale: Locale | null): Representation {
    return this.page(
      'roles',
      query,
      locale,
      (s) => s.roles,
      (r) => r.role,
    );
  }

  role(role: string, locale: Locale | null): Representation {
    return this.cached(`role|${role}|${locale}`, (s) => withTextView(s.role(role) ?? throwNotFound(`Role ${role}`), locale), locale);
  }

  policies(query: ListQueryDto, locale: Locale | null): Representation {
    const today = utcDate(new Date());
    return this.page(
      `policies@${today}`,
      query,
      locale,
      (s) => s.policiesInForce(today),
      (p) => p.policyId,
      'policies',
    );
  }

  policy(policyId: string, query: PolicyReadQueryDto, locale: Locale | null): Representation {
    if (query.version !== undefined && query.at !== undefined) throw conflictingPolicyQuery();
    const at = query.version === undefined ? utcDate(query.at === undefined ? new Date() : new Date(query.at)) : undefined;
    return this.cached(
      `policy|${policyId}|${query.version}|${at}|${locale}`,
      (s) => {
        const versions = s.policyVersionsOf(policyId) ?? throwNotFound(`Policy ${policyId}`);
        const found = query.version !== undefined ? versions.find((v) => v.version === query.version) : s.policyInForce(policyId, at!);
        if (found) return withTextView(found, locale);
        throw registryNotFound(
          query.version !== undefined
            ? `Version ${query.version} of policy ${policyId}`
            : `A version of policy ${policyId} in force on ${at}`,
        );
      },
      locale,
    );
  }

  brand(locale: Locale | null): Representation {
    return this.cached(`brand|${locale}`, (s) => withTextView(s.brand, locale), locale);
  }

  splitTemplates(query: ListQueryDto, locale: Locale | null): Representation {
    return this.page(
      'split-templates',
      query,
      locale,
      (s) => s.splitTemplates,
      (t) => t.version,
    );
  }

  splitTemplate(version: string, locale: Locale | null): Representation {
    return this.cached(
      `split-template|${version}|${locale}`,
      (s) => withTextView(s.splitTemplate(version) ?? throwNotFound(`Split template ${version}`), locale),
      locale,
    );
  }

  private cached(key: string, build: (snapshot: RegistrySnapshot) => unknown, locale: Locale | null): Representation {
    const snapshot = this.snapshot;
    if (!snapshot) throw registryEmpty();
    return this.cache.get(key, () => represent(build(snapshot), locale));
  }

  private page<T extends object>(
    list: string,
    query: ListQueryDto,
    locale: Locale | null,
    items: (snapshot: RegistrySnapshot) => ItemsByPosition<T> | RankedItems<T>,
    keyOf: (item: T) => string,
    cursorList = list,
    view: (item: T) => object = (item) => item,
  ): Representation {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    return this.cached(
      `${list}|${limit}|${query.cursor}|${locale}`,
      (s) => {
        const page = paginate(cursorList, items(s), keyOf, { limit, cursor: query.cursor });
        return { items: page.items.map((item) => withTextView(view(item), locale)), nextCursor: page.nextCursor };
      },
      locale,
    );
  }
}

function throwNotFound(what: string): never {
  throw registryNotFound(what);
}

/** A rank as a key that sorts as the rank does. */
function rankKey(rank: number): string {
  return String(rank).padStart(6, '0');
}

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
