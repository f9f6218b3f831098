// A release's text indexes stored beside it in the database, so that a replica loads them instead of tokenizing
// the release again (docs/decisions.md, issue 30, the stored index): written in chunks, read a chunk at a time
// into one buffer, checked against their SHA-256 before they are decoded.
import { createHash } from 'node:crypto';
import type { RegistryRepository } from '../registry-storage/registry.repository';
import type { RegistrySearchIndex } from '../search-index/registry-search-index';
import {
  decodeSearchIndexSnapshot,
  encodeSearchIndexSnapshot,
  SEARCH_INDEX_FORMAT_VERSION,
  UnreadableSearchIndexSnapshot,
  type StoredTextIndexes,
} from '../search-index/search-index-snapshot';

/**
 * The bytes of a chunk row: small, so that no read holds the whole index as one hex string, and every buffer a read
 * allocates for a chunk (the driver's message, its hex text, the chunk's bytes) stays small enough for glibc's
 * allocator to reuse; 4 MB chunks left 287-329 MB of RSS after the load against 294-296 (docs/decisions.md).
 */
export const SEARCH_INDEX_CHUNK_BYTES = 64 * 1024;
/** The chunks read by one query: about 2 MB of index, each chunk its own row (message) all the same. */
const CHUNKS_PER_READ = 32;

/** What was found stored for a release: its text indexes, or why there are none to use. */
export type StoredSearchIndex =
  | { indexes: StoredTextIndexes }
  | {
      indexes: undefined;
      /** Why the stored index was not used; undefined when none is stored (nothing to warn of). */
      problem: string | undefined;
      /** Whether one of this format version is stored and did not read: a new one is stored in its place. */
      replacing: boolean;
    };

/** The text indexes stored for a release in this build's format, read and checked; never a part of one that does not read. */
export async function readStoredSearchIndex(repository: RegistryRepository, release: string): Promise<StoredSearchIndex> {
  const headers = await repository.storedSearchIndexes(release);
  const header = headers.find((stored) => stored.formatVersion === SEARCH_INDEX_FORMAT_VERSION);
  if (header === undefined) {
    const others = headers.map((stored) => stored.formatVersion);
    const problem =
      others.length === 0 ? undefined : `stored in format version ${others.join(', ')}, this build reads ${SEARCH_INDEX_FORMAT_VERSION}`;
    return { indexes: undefined, problem, replacing: false };
  }
  const unreadable = (problem: string): StoredSearchIndex => ({ indexes: undefined, problem, replacing: true });
  // One buffer for the whole index (a multiple of 8 bytes from its start: its typed arrays are views on it).
  const snapshot = new Uint8Array(header.byteLength);
  const hash = createHash('sha256');
  let filled = 0;
  for (let first = 0; first < header.chunkCount; first += CHUNKS_PER_READ) {
    const count = Math.min(CHUNKS_PER_READ, header.chunkCount - first);
    const rows = await repository.storedSearchIndexChunks(release, SEARCH_INDEX_FORMAT_VERSION, first, count);
    for (let i = 0; i < count; i++) {
      const row = rows[i];
      if (row?.chunk !== first + i) return unreadable(`chunk ${first + i} of ${header.chunkCount} is missing`);
      if (filled + row.bytes.byteLength > snapshot.byteLength) {
        return unreadable(`the chunks hold more than the ${header.byteLength} bytes stored`);
      }
      snapshot.set(row.bytes, filled);
      filled += row.bytes.byteLength;
      hash.update(row.bytes);
    }
  }
  if (filled !== snapshot.byteLength) return unreadable(`the chunks hold ${filled} of the ${header.byteLength} bytes stored`);
  if (!hash.digest().equals(header.sha256)) return unreadable('the checksum does not match');
  try {
    return { indexes: decodeSearchIndexSnapshot(snapshot) };
  } catch (error) {
    if (error instanceof UnreadableSearchIndexSnapshot) return unreadable(error.message);
    throw error;
  }
}

/**
 * Stores a release's text indexes, unless one of this format version is stored already (or with `replacing`, in
 * place of it). Returns whether it stored them.
 */
export async function storeSearchIndex(
  repository: RegistryRepository,
  release: string,
  index: RegistrySearchIndex,
  options: { replacing?: boolean } = {},
): Promise<boolean> {
  const snapshot = encodeSearchIndexSnapshot(index.textIndexes());
  const chunkCount = Math.ceil(snapshot.byteLength / SEARCH_INDEX_CHUNK_BYTES);
  const chunks = Array.from({ length: chunkCount }, (_, chunk) =>
    snapshot.subarray(chunk * SEARCH_INDEX_CHUNK_BYTES, (chunk + 1) * SEARCH_INDEX_CHUNK_BYTES),
  );
  const sha256 = createHash('sha256').update(snapshot).digest();
  return repository.storeSearchIndex(
    release,
    { formatVersion: SEARCH_INDEX_FORMAT_VERSION, byteLength: snapshot.byteLength, chunkCount, sha256 },
    chunks,
    options,
  );
}
