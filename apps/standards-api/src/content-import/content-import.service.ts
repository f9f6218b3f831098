import { Injectable } from '@nestjs/common';
import { contentDigest, loadPack, type PackIssue } from '@stdreg/registry-content';
import { RegistryRelease } from '../registry-release/registry-release';
import { storeSearchIndex } from '../registry-release/stored-search-index';
import type { ContentReleaseEntity } from '../registry-storage/registry.entity';
import { RegistryRepository } from '../registry-storage/registry.repository';

/** Whether the import stored the new release's search index (else the first replica to load it builds and stores it). */
export type SearchIndexStoring = { stored: true; milliseconds: number } | { stored: false; problem: string };

export type ImportOutcome =
  | { status: 'imported'; digest: string; packVersion: string; importedAt: Date; searchIndex: SearchIndexStoring }
  | { status: 'unchanged'; digest: string; packVersion: string }
  | { status: 'refused'; issues: PackIssue[] };

type RecordOutcome =
  | { status: 'imported'; digest: string; packVersion: string; release: ContentReleaseEntity }
  | Exclude<ImportOutcome, { status: 'imported' }>;

/**
 * Imports a content pack: validated in full first, then written in one transaction or not at all; then the new
 * release's search index is built from its records and stored beside it, in a transaction of its own.
 */
@Injectable()
export class ContentImportService {
  constructor(private readonly registry: RegistryRepository) {}

  async importPack(directory: string): Promise<ImportOutcome> {
    // The pack is let go before the index is built: at full size the two would not fit the import's heap together.
    const recorded = await this.recordPack(directory);
    if (recorded.status !== 'imported') return recorded;
    const { release, ...outcome } = recorded;
    return { ...outcome, importedAt: release.importedAt, searchIndex: await this.storeSearchIndex(release) };
  }

  /** First start: an empty registry gets the pack; a registry with content is left as it is. */
  async importIfEmpty(directory: string): Promise<ImportOutcome | null> {
    if (await this.registry.currentRelease()) return null;
    return this.importPack(directory);
  }

  private async recordPack(directory: string): Promise<RecordOutcome> {
    const validation = await loadPack(directory);
    if (!validation.ok) return { status: 'refused', issues: validation.issues };
    const digest = contentDigest(validation.pack);
    const release = await this.registry.replaceContent(validation.pack, digest);
    const packVersion = validation.pack.pack.packVersion;
    return release ? { status: 'imported', digest, packVersion, release } : { status: 'unchanged', digest, packVersion };
  }

  private async storeSearchIndex(release: ContentReleaseEntity): Promise<SearchIndexStoring> {
    const started = performance.now();
    try {
      const loaded = await RegistryRelease.load(this.registry, release);
      await storeSearchIndex(this.registry, release.sequence, loaded.search);
      return { stored: true, milliseconds: Math.round(performance.now() - started) };
    } catch (error) {
      return { stored: false, problem: (error as Error).message };
    }
  }
}
