// Registry reads from standards-api, cached per content release: the manifest digest names the release.
import type {
  ManifestDto,
  Page,
  PolicyDto,
  RoleDto,
  SearchRequestDto,
  SearchResultDto,
  SplitTemplateDto,
  StandardSummaryDto,
  TaskSpecDto,
  TermDto,
} from '@stdreg/contracts';
import { MAX_PAGE_LIMIT } from '@stdreg/contracts';
import type { StandardsApiClient } from './standards-api.client';
import type { UpstreamResult } from './upstream-result';

export interface RegistryCollections {
  standards: StandardSummaryDto;
  terms: TermDto;
  tasks: TaskSpecDto;
  roles: RoleDto;
  policies: PolicyDto;
  'split-templates': SplitTemplateDto;
}

const MAX_ENTRIES = 2000;
/** Search answers are larger (a practice and the clauses of five standards): fewer of them are kept. */
const MAX_SEARCH_ENTRIES = 256;

export class RegistryCache {
  private digest: string | null = null;
  private manifestRead: { at: number; result: Promise<UpstreamResult<ManifestDto>> } | null = null;
  private readonly reads = new Map<string, Promise<UpstreamResult<unknown>>>();
  private readonly searches = new Map<string, Promise<UpstreamResult<unknown>>>();
  /** Values built from whole lists of the current release (every item, an index): few keys, each built once. */
  private readonly derived = new Map<string, Promise<UpstreamResult<unknown>>>();

  constructor(
    private readonly api: StandardsApiClient,
    private readonly refreshMs: number,
  ) {}

  /** The manifest, re-read at most every refreshMs; a new digest drops every cached read. */
  async manifest(): Promise<UpstreamResult<ManifestDto>> {
    const now = Date.now();
    if (!this.manifestRead || now - this.manifestRead.at >= this.refreshMs) {
      const result = this.api.get<ManifestDto>('/manifest');
      this.manifestRead = { at: now, result };
      const answered = await result;
      if (!answered.ok) {
        this.manifestRead = null;
        return answered;
      }
      if (answered.body.digest !== this.digest) {
        this.digest = answered.body.digest;
        this.reads.clear();
        this.searches.clear();
        this.derived.clear();
      }
    }
    return this.manifestRead.result;
  }

  /** One registry document (GET path?query), cached for the current release when found or absent. */
  async read<T>(path: string, query: Record<string, string | undefined> = {}): Promise<UpstreamResult<T>> {
    const key = `${path}?${new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString()}`;
    return this.cachedFor(this.reads, MAX_ENTRIES, key, () => this.api.get<T>(path, query));
  }

  /** The answer cached under `key` for the current release, asked once; a failure other than 404 is not kept. */
  private async cachedFor<T>(
    store: Map<string, Promise<UpstreamResult<unknown>>>,
    maxEntries: number,
    key: string,
    ask: () => Promise<UpstreamResult<T>>,
  ): Promise<UpstreamResult<T>> {
    const manifest = await this.manifest();
    if (!manifest.ok) return manifest;
    let cached = store.get(key) as Promise<UpstreamResult<T>> | undefined;
    if (!cached) {
      cached = ask();
      if (store.size >= maxEntries) store.clear();
      store.set(key, cached);
      const result = await cached;
      if (!result.ok && result.status !== 404) store.delete(key);
    }
    return cached;
  }

  /** One full-text search of the registry (POST /search), cached for the current release like a read. */
  async search(request: SearchRequestDto): Promise<UpstreamResult<SearchResultDto>> {
    return this.cachedFor(this.searches, MAX_SEARCH_ENTRIES, JSON.stringify([request.in, request.limit, request.q]), () =>
      this.api.search(request),
    );
  }

  /**
   * A value built from the current release (`build` reads what it needs), built once and kept until the
   * digest changes; a failure (a refusal or a throw) is not kept. Concurrent callers share one build.
   */
  async perRelease<T>(key: string, build: () => Promise<UpstreamResult<T>>): Promise<UpstreamResult<T>> {
    const manifest = await this.manifest();
    if (!manifest.ok) return manifest;
    let built = this.derived.get(key) as Promise<UpstreamResult<T>> | undefined;
    if (!built) {
      built = build();
      this.derived.set(key, built);
      const result = await built.catch(() => null);
      if (result?.ok !== true && this.derived.get(key) === built) this.derived.delete(key);
    }
    return built;
  }

  /** Every item of a registry list, all pages, read once per release. */
  async all<K extends keyof RegistryCollections>(collection: K): Promise<UpstreamResult<RegistryCollections[K][]>> {
    return this.perRelease(`all:${collection}`, () => this.walk(collection));
  }

  /**
   * Every item of a registry list, all pages, read from standards-api now and kept by nobody: the pages
   * bypass the read cache, which 1 000 pages of terms would otherwise fill and empty.
   */
  async walk<K extends keyof RegistryCollections>(collection: K): Promise<UpstreamResult<RegistryCollections[K][]>> {
    const items: RegistryCollections[K][] = [];
    const given = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.api.get<Page<RegistryCollections[K]>>(`/${collection}`, { limit: String(MAX_PAGE_LIMIT), cursor });
      if (!page.ok) return page;
      items.push(...page.body.items);
      cursor = page.body.nextCursor ?? undefined;
      // A list that pages back to where it was would be walked for ever: refused as a bad answer.
      if (cursor !== undefined && given.has(cursor)) {
        return { ok: false, status: 502, message: `standards-api paged /${collection} back to a page it had given.` };
      }
      if (cursor !== undefined) given.add(cursor);
    } while (cursor);
    return { ok: true, status: 200, body: items };
  }
}
