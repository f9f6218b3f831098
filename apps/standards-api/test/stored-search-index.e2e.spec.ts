import { jest } from '@jest/globals';
import { contentDigest, loadPack, samplePackDirectory, type ContentPack } from '@stdreg/registry-content';
import { RegistryRelease } from '../src/registry-release/registry-release';
import { SEARCH_INDEX_CHUNK_BYTES, storeSearchIndex } from '../src/registry-release/stored-search-index';
import type { ContentReleaseEntity } from '../src/registry-storage/registry.entity';
import { RegistryRepository } from '../src/registry-storage/registry.repository';
import { RegistryService } from '../src/registry/registry.service';
import { SEARCH_INDEX_FORMAT_VERSION } from '../src/search-index/search-index-snapshot';
import { expectSameAnswers, packWords } from './support/search-answers';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

let api: RunningStandardsApi;
let repository: RegistryRepository;
let release: ContentReleaseEntity;
let pack: ContentPack;
let words: string[];
/** The release as loaded with no stored index: its index built from the records. */
let fromRecords: RegistryRelease;
/** How many chunks the sample pack's stored index takes. */
let chunkCount: number;

const sql = (text: string, parameters: unknown[] = []) => api.dataSource.query(text, parameters);
const dropStoredIndexes = () => sql('DELETE FROM search_index_snapshot WHERE release = $1', [release.sequence]);

async function storedAgain(): Promise<void> {
  await dropStoredIndexes();
  expect(await storeSearchIndex(repository, release.sequence, fromRecords.search)).toBe(true);
}

beforeAll(async () => {
  api = await startStandardsApi({ CONTENT_REFRESH_SECONDS: '3600' });
  repository = api.app.get(RegistryRepository);
  release = (await repository.currentRelease())!;
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('the sample pack does not load');
  pack = loaded.pack;
  words = packWords(pack);
});
afterAll(async () => {
  await api.close();
});

describe('the stored search index of a release', () => {
  it('is stored by the import, and the service serves the release from it', async () => {
    const stored = await repository.storedSearchIndexes(release.sequence);
    expect(stored).toEqual([expect.objectContaining({ formatVersion: SEARCH_INDEX_FORMAT_VERSION })]);
    // Even the sample pack's index takes a few chunks: the specs below read, drop and corrupt one of several.
    expect(stored[0]!.chunkCount).toBe(Math.ceil(stored[0]!.byteLength / SEARCH_INDEX_CHUNK_BYTES));
    expect(stored[0]!.chunkCount).toBeGreaterThan(2);
    chunkCount = stored[0]!.chunkCount;
    expect(api.app.get(RegistryService).currentRelease()?.searchIndexOrigin).toEqual({ from: 'stored' });
  });

  it('loaded as stored, answers every search as the index built from the records', async () => {
    const loaded = await RegistryRelease.load(repository, release);
    expect(loaded.searchIndexOrigin).toEqual({ from: 'stored' });
    await dropStoredIndexes();
    fromRecords = await RegistryRelease.load(repository, release);
    expect(fromRecords.searchIndexOrigin).toEqual({ from: 'records', problem: undefined, replacing: false });
    expectSameAnswers(fromRecords.search, loaded.search, words, 200);
    expect(loaded.termIds).toEqual(fromRecords.termIds);
    expect(loaded.taskCodes).toEqual(fromRecords.taskCodes);
    expect(loaded.manifest).toEqual(fromRecords.manifest);
    await storedAgain();
  });

  it('with a corrupt chunk, is built from the records (the same answers) and stored again in its place', async () => {
    await sql(
      `UPDATE search_index_snapshot_chunk SET bytes = set_byte(bytes, 4000, (get_byte(bytes, 4000) + 1) % 256)
        WHERE release = $1 AND chunk = 1`,
      [release.sequence],
    );
    const loaded = await RegistryRelease.load(repository, release);
    expect(loaded.searchIndexOrigin).toEqual({ from: 'records', problem: 'the checksum does not match', replacing: true });
    expectSameAnswers(fromRecords.search, loaded.search, words, 40);
    expect(await storeSearchIndex(repository, release.sequence, loaded.search, { replacing: true })).toBe(true);
    expect((await RegistryRelease.load(repository, release)).searchIndexOrigin).toEqual({ from: 'stored' });
  });

  it('with a chunk missing, or one too short, is built from the records', async () => {
    await sql('DELETE FROM search_index_snapshot_chunk WHERE release = $1 AND chunk = 1', [release.sequence]);
    const missing = await RegistryRelease.load(repository, release);
    expect(missing.searchIndexOrigin).toEqual({ from: 'records', problem: `chunk 1 of ${chunkCount} is missing`, replacing: true });
    expectSameAnswers(fromRecords.search, missing.search, words, 40);
    await storedAgain();
    await sql('UPDATE search_index_snapshot_chunk SET bytes = substring(bytes from 1 for 1000) WHERE release = $1 AND chunk = 0', [
      release.sequence,
    ]);
    const short = await RegistryRelease.load(repository, release);
    const stored = (await repository.storedSearchIndexes(release.sequence))[0]!;
    expect(short.searchIndexOrigin).toEqual({
      from: 'records',
      problem: `the chunks hold ${stored.byteLength - SEARCH_INDEX_CHUNK_BYTES + 1000} of the ${stored.byteLength} bytes stored`,
      replacing: true,
    });
    await storedAgain();
  });

  it('of another format version is not read: built from the records, and stored in this version beside it', async () => {
    // The chunks name their header's version: a header of another version is copied, then this version's dropped.
    await sql(
      `INSERT INTO search_index_snapshot (release, format_version, byte_length, chunk_count, sha256)
       SELECT release, 0, byte_length, chunk_count, sha256 FROM search_index_snapshot WHERE release = $1 AND format_version = $2`,
      [release.sequence, SEARCH_INDEX_FORMAT_VERSION],
    );
    await sql('DELETE FROM search_index_snapshot WHERE release = $1 AND format_version = $2', [
      release.sequence,
      SEARCH_INDEX_FORMAT_VERSION,
    ]);
    const loaded = await RegistryRelease.load(repository, release);
    expect(loaded.searchIndexOrigin).toEqual({
      from: 'records',
      problem: `stored in format version 0, this build reads ${SEARCH_INDEX_FORMAT_VERSION}`,
      replacing: false,
    });
    expectSameAnswers(fromRecords.search, loaded.search, words, 40);
    expect(await storeSearchIndex(repository, release.sequence, loaded.search)).toBe(true);
    expect((await repository.storedSearchIndexes(release.sequence)).map((stored) => stored.formatVersion).sort()).toEqual([
      0,
      SEARCH_INDEX_FORMAT_VERSION,
    ]);
    expect((await RegistryRelease.load(repository, release)).searchIndexOrigin).toEqual({ from: 'stored' });
    await sql('DELETE FROM search_index_snapshot WHERE release = $1 AND format_version = 0', [release.sequence]);
  });

  it('whose bytes say another format version (their checksum right) is not read', async () => {
    const otherVersion = SEARCH_INDEX_FORMAT_VERSION + 1;
    await sql(`UPDATE search_index_snapshot_chunk SET bytes = set_byte(bytes, 4, $2) WHERE release = $1 AND chunk = 0`, [
      release.sequence,
      otherVersion,
    ]);
    await sql(
      `UPDATE search_index_snapshot s SET sha256 = (SELECT sha256(string_agg(bytes, ''::bytea ORDER BY chunk)) FROM search_index_snapshot_chunk c
          WHERE c.release = s.release AND c.format_version = s.format_version) WHERE release = $1`,
      [release.sequence],
    );
    const loaded = await RegistryRelease.load(repository, release);
    expect(loaded.searchIndexOrigin).toEqual({
      from: 'records',
      problem: `format version ${otherVersion}, this build reads ${SEARCH_INDEX_FORMAT_VERSION}`,
      replacing: true,
    });
    await storedAgain();
  });

  it('stored by two replicas at once, is stored once and reads back', async () => {
    await dropStoredIndexes();
    const outcomes = await Promise.all([
      storeSearchIndex(repository, release.sequence, fromRecords.search),
      storeSearchIndex(repository, release.sequence, fromRecords.search),
    ]);
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await repository.storedSearchIndexes(release.sequence)).toHaveLength(1);
    const [{ chunks }] = await sql('SELECT count(*)::int AS chunks FROM search_index_snapshot_chunk WHERE release = $1', [
      release.sequence,
    ]);
    expect(chunks).toBe(chunkCount);
    expect((await RegistryRelease.load(repository, release)).searchIndexOrigin).toEqual({ from: 'stored' });
  });

  it('of a release just imported is waited for by a replica serving another, which then switches to it as stored', async () => {
    const service = api.app.get(RegistryService);
    const serving = service.currentRelease()!.sequence;
    const changed: ContentPack = { ...pack, pack: { ...pack.pack, packVersion: '2099.1.0' } };
    // As the import does before it stores the index: the release committed, its index not yet stored.
    const imported = (await repository.replaceContent(changed, contentDigest(changed)))!;
    await service.refreshIfChanged();
    expect(service.currentRelease()?.sequence).toBe(serving);
    const built = await RegistryRelease.load(repository, imported);
    expect(await storeSearchIndex(repository, imported.sequence, built.search)).toBe(true);
    await service.refreshIfChanged();
    expect(service.currentRelease()?.sequence).toBe(imported.sequence);
    expect(service.currentRelease()?.searchIndexOrigin).toEqual({ from: 'stored' });
  });

  it('of a release imported without one (by an older build) is built when the service loads it, and stored once it serves', async () => {
    const changed: ContentPack = { ...pack, pack: { ...pack.pack, packVersion: '2099.2.0' } };
    const imported = (await repository.replaceContent(changed, contentDigest(changed)))!;
    expect(await repository.storedSearchIndexes(imported.sequence)).toEqual([]);
    const service = api.app.get(RegistryService);
    // An hour after the import: a replica no longer waits for its index (content_release is append-only, so the clock moves).
    const anHourLater = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 3_600_000);
    try {
      await service.refreshIfChanged();
    } finally {
      anHourLater.mockRestore();
    }
    expect(service.currentRelease()?.sequence).toBe(imported.sequence);
    expect(service.currentRelease()?.searchIndexOrigin).toEqual({ from: 'records', problem: undefined, replacing: false });
    const deadline = Date.now() + 20_000;
    while ((await repository.storedSearchIndexes(imported.sequence)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await repository.storedSearchIndexes(imported.sequence)).toHaveLength(1);
    const loaded = await RegistryRelease.load(repository, imported);
    expect(loaded.searchIndexOrigin).toEqual({ from: 'stored' });
    expectSameAnswers(service.currentRelease()!.search, loaded.search, words, 40);
  });
});
