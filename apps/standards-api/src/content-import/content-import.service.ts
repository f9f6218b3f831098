import { Injectable } from '@nestjs/common';
import { contentDigest, loadPack, type PackIssue } from '@stdreg/registry-content';
import { RegistryRepository } from '../registry-storage/registry.repository';

export type ImportOutcome =
  | { status: 'imported'; digest: string; packVersion: string; importedAt: Date }
  | { status: 'unchanged'; digest: string; packVersion: string }
  | { status: 'refused'; issues: PackIssue[] };

/** Imports a content pack: validated in full first, then written in one transaction or not at all. */
@Injectable()
export class ContentImportService {
  constructor(private readonly registry: RegistryRepository) {}

  async importPack(directory: string): Promise<ImportOutcome> {
    const validation = await loadPack(directory);
    if (!validation.ok) return { status: 'refused', issues: validation.issues };
    const digest = contentDigest(validation.pack);
    const release = await this.registry.replaceContent(validation.pack, digest);
    const packVersion = validation.pack.pack.packVersion;
    return release
      ? { status: 'imported', digest, packVersion, importedAt: release.importedAt }
      : { status: 'unchanged', digest, packVersion };
  }

  /** First start: an empty registry gets the pack; a registry with content is left as it is. */
  async importIfEmpty(directory: string): Promise<ImportOutcome | null> {
    if (await this.registry.currentRelease()) return null;
    return this.importPack(directory);
  }
}
