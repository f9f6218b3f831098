import { loadPack, samplePackDirectory, type ContentPack } from '@stdreg/registry-content';
import { sampleSearchSource } from '../../test/support/sample-search-source';
import { expectSameAnswers, packWords } from '../../test/support/search-answers';
import { RegistrySearchIndex } from './registry-search-index';
import {
  decodeSearchIndexSnapshot,
  encodeSearchIndexSnapshot,
  SEARCH_INDEX_FORMAT_VERSION,
  storedIndexFor,
  UnreadableSearchIndexSnapshot,
  type StoredTextIndexes,
} from './search-index-snapshot';

let pack: ContentPack;
let built: RegistrySearchIndex;
let snapshot: Uint8Array;

/** The sample pack's current release as the index is built from it, read anew each time (three records a batch). */
const sampleSource = () => sampleSearchSource(pack, 3);

/** The snapshot's bytes in a buffer of their own, from its start (as a load reads them). */
function loadedBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** The snapshot with its JSON header edited, its parts moved after the new header (their offsets are from its end). */
function withHeader(edit: (header: { indexes: Record<string, unknown> }) => void): Uint8Array {
  const headerLength = new DataView(snapshot.buffer, snapshot.byteOffset, 12).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(snapshot.subarray(12, 12 + headerLength))) as { indexes: Record<string, unknown> };
  edit(header);
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const bodyStart = (length: number) => Math.ceil((12 + length) / 8) * 8;
  const body = snapshot.subarray(bodyStart(headerLength));
  const bytes = new Uint8Array(bodyStart(headerBytes.byteLength) + body.byteLength);
  bytes.set(snapshot.subarray(0, 12));
  new DataView(bytes.buffer).setUint32(8, headerBytes.byteLength, true);
  bytes.set(headerBytes, 12);
  bytes.set(body, bodyStart(headerBytes.byteLength));
  return bytes;
}

function expectUnreadable(bytes: Uint8Array, message: RegExp): void {
  expect(() => decodeSearchIndexSnapshot(bytes)).toThrow(UnreadableSearchIndexSnapshot);
  expect(() => decodeSearchIndexSnapshot(bytes)).toThrow(message);
}

beforeAll(async () => {
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('the sample pack does not load');
  pack = loaded.pack;
  built = await RegistrySearchIndex.build(sampleSource());
  snapshot = encodeSearchIndexSnapshot(built.textIndexes());
});

describe('the stored form of a search index', () => {
  it('reads back as the parts it was written from, its typed arrays views on the bytes read', () => {
    const bytes = loadedBytes(snapshot);
    const decoded = decodeSearchIndexSnapshot(bytes);
    const written = built.textIndexes();
    for (const name of ['terms', 'clauses', 'blocks', 'roles'] as const) {
      expect(decoded[name].fields).toEqual(written[name].fields);
      expect(decoded[name].parts).toEqual(written[name].parts);
      expect(decoded[name].parts.postingDocuments.buffer).toBe(bytes.buffer);
      expect(decoded[name].parts.vocabulary.rankOf.buffer).toBe(bytes.buffer);
    }
    expect(decoded.terms.parts.ids.length).toBe(pack.terms.length);
  });

  it('is the same bytes for the same records, and again once loaded (building it is deterministic)', async () => {
    const again = await RegistrySearchIndex.build(sampleSource());
    expect(Buffer.from(encodeSearchIndexSnapshot(again.textIndexes())).equals(Buffer.from(snapshot))).toBe(true);
    const loaded = await RegistrySearchIndex.build(sampleSource(), decodeSearchIndexSnapshot(loadedBytes(snapshot)));
    expect(Buffer.from(encodeSearchIndexSnapshot(loaded.textIndexes())).equals(Buffer.from(snapshot))).toBe(true);
  });

  it('loaded, answers every search as the index built from the records', async () => {
    const loaded = await RegistrySearchIndex.build(sampleSource(), decodeSearchIndexSnapshot(loadedBytes(snapshot)));
    expectSameAnswers(built, loaded, packWords(pack), 300);
  });

  it('refuses another format version, another kind of bytes, a truncated or unaligned snapshot', () => {
    const otherVersion = loadedBytes(snapshot);
    new DataView(otherVersion.buffer).setUint32(4, SEARCH_INDEX_FORMAT_VERSION + 1, true);
    expectUnreadable(
      otherVersion,
      new RegExp(`format version ${SEARCH_INDEX_FORMAT_VERSION + 1}, this build reads ${SEARCH_INDEX_FORMAT_VERSION}`),
    );
    const notOne = loadedBytes(snapshot);
    notOne[0] = 0x7b;
    expectUnreadable(notOne, /not a search index snapshot/);
    expectUnreadable(loadedBytes(snapshot.subarray(0, snapshot.byteLength - 8)), /runs past the snapshot/);
    expectUnreadable(loadedBytes(snapshot.subarray(0, 6)), /shorter than its start/);
    const unaligned = new Uint8Array(snapshot.byteLength + 4);
    unaligned.set(snapshot, 4);
    expectUnreadable(unaligned.subarray(4), /not aligned/);
    const badHeader = loadedBytes(snapshot);
    badHeader[12] = 0x20;
    badHeader[13] = 0x7d;
    expectUnreadable(badHeader, /the header does not read/);
  });

  it('refuses a header without the block index (as format version 1 laid it out)', () => {
    expectUnreadable(
      withHeader((header) => delete header.indexes['blocks']),
      /the blocks index is missing or incomplete/,
    );
    // Rewritten with its header as it was, it reads: the rewriting is not what refuses the one above.
    expect(decodeSearchIndexSnapshot(withHeader(() => undefined)).blocks.parts).toEqual(built.textIndexes().blocks.parts);
  });

  it('is not used for other records than those it was built from', async () => {
    const stored = decodeSearchIndexSnapshot(loadedBytes(snapshot));
    const ids = stored.terms.parts.ids;
    expect(storedIndexFor(stored.terms, stored.terms.fields, ids)).toBe(stored.terms.parts);
    expect(() => storedIndexFor(stored.terms, stored.terms.fields, ids.slice(1))).toThrow(UnreadableSearchIndexSnapshot);
    expect(() => storedIndexFor(stored.terms, stored.terms.fields, [...ids].reverse())).toThrow(UnreadableSearchIndexSnapshot);
    expect(() => storedIndexFor(stored.terms, stored.clauses.fields, ids)).toThrow(UnreadableSearchIndexSnapshot);
    // The clauses' index stored as the terms': the build finds it is not of the terms it reads.
    const swapped: StoredTextIndexes = { ...stored, terms: stored.clauses };
    await expect(RegistrySearchIndex.build(sampleSource(), swapped)).rejects.toThrow(UnreadableSearchIndexSnapshot);
  });
});
