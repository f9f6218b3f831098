// The stored form of a release's text indexes (terms, clauses, blocks, roles: the tokenizing and the postings, the most
// of a release's load), built once per release and loaded by every replica instead of rebuilt (docs/decisions.md,
// issue 30, the stored index). One byte string: a fixed start (magic, format version, the header's length), a
// JSON header naming each part's place, then the parts, each at a multiple of 8 bytes so that a loaded typed
// array is a view on the loaded bytes, not a copy. Strings are UTF-8. Typed arrays are little-endian.
import type { TextIndexParts } from './compact-text-index';

/** Changes whenever what is stored or how it is laid out changes: a snapshot of another version is not read. */
export const SEARCH_INDEX_FORMAT_VERSION = 3;

const MAGIC = 0x58495253; // "SRIX" read as a little-endian 32-bit integer
const START_BYTES = 12;
const ALIGNMENT = 8;

/** The text indexes of a release's search index, each with the fields it was built with. */
export interface StoredTextIndexes {
  terms: StoredTextIndex;
  clauses: StoredTextIndex;
  /** Each current block as one document (its clauses' text and conditions, its heading once). */
  blocks: StoredTextIndex;
  roles: StoredTextIndex;
}

export interface StoredTextIndex {
  fields: readonly string[];
  parts: TextIndexParts;
}

/** A snapshot that cannot be read: another format, truncated, or not one at all. */
export class UnreadableSearchIndexSnapshot extends Error {}

const ARRAY_TYPES = {
  Int32Array,
  Uint16Array,
  Uint8Array,
  Float32Array,
  Float64Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
type StoredArray = Int32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

/** Where a part is: its offset from the start of the snapshot, and its length in elements (bytes for a string). */
interface PartPlace {
  type: ArrayTypeName | 'utf8';
  offset: number;
  length: number;
}

type IndexName = 'terms' | 'clauses' | 'blocks' | 'roles';
type ArrayPartName =
  | 'offsets'
  | 'postingDocuments'
  | 'postingFrequencies'
  | 'fieldLengths'
  | 'averageFieldLengths'
  | 'longestFields'
  | 'maxScores'
  | 'idLengths'
  | 'ends'
  | 'shared'
  | 'rankOf'
  | 'tokenOf';

interface IndexHeader {
  fields: string[];
  hanFirstAllHan: boolean;
  hanStart: number;
  parts: Record<ArrayPartName | 'ids' | 'packed', PartPlace>;
}

interface Header {
  indexes: Record<IndexName, IndexHeader>;
}

function aligned(offset: number): number {
  return Math.ceil(offset / ALIGNMENT) * ALIGNMENT;
}

function arrayTypeOf(array: StoredArray): ArrayTypeName {
  const name = array.constructor.name;
  if (!Object.hasOwn(ARRAY_TYPES, name)) throw new Error(`a ${name} cannot be stored`);
  return name as ArrayTypeName;
}

/** The snapshot of a release's text indexes, as one byte string. */
export function encodeSearchIndexSnapshot(indexes: StoredTextIndexes): Uint8Array {
  const encoder = new TextEncoder();
  const bodies: { place: PartPlace; bytes: Uint8Array }[] = [];
  let end = 0;
  const place = (type: PartPlace['type'], length: number, bytes: Uint8Array): PartPlace => {
    const part = { type, offset: end, length };
    bodies.push({ place: part, bytes });
    end = aligned(end + bytes.byteLength);
    return part;
  };
  const array = (values: StoredArray) =>
    place(arrayTypeOf(values), values.length, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  const text = (value: string) => {
    const bytes = encoder.encode(value);
    return place('utf8', bytes.byteLength, bytes);
  };
  const indexHeader = ({ fields, parts }: StoredTextIndex): IndexHeader => {
    const { vocabulary } = parts;
    return {
      fields: [...fields],
      hanFirstAllHan: parts.hanFirstAllHan,
      hanStart: vocabulary.hanStart,
      parts: {
        offsets: array(parts.offsets),
        postingDocuments: array(parts.postingDocuments),
        postingFrequencies: array(parts.postingFrequencies),
        fieldLengths: array(parts.fieldLengths),
        averageFieldLengths: array(parts.averageFieldLengths),
        longestFields: array(parts.longestFields),
        maxScores: array(parts.maxScores),
        idLengths: array(Int32Array.from(parts.ids, (id) => id.length)),
        ids: text(parts.ids.join('')),
        ends: array(vocabulary.ends),
        shared: array(vocabulary.shared),
        rankOf: array(vocabulary.rankOf),
        tokenOf: array(vocabulary.tokenOf),
        packed: text(vocabulary.packed),
      },
    };
  };
  const header: Header = {
    indexes: {
      terms: indexHeader(indexes.terms),
      clauses: indexHeader(indexes.clauses),
      blocks: indexHeader(indexes.blocks),
      roles: indexHeader(indexes.roles),
    },
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const bodyStart = aligned(START_BYTES + headerBytes.byteLength);
  const snapshot = new Uint8Array(bodyStart + end);
  const start = new DataView(snapshot.buffer);
  start.setUint32(0, MAGIC, true);
  start.setUint32(4, SEARCH_INDEX_FORMAT_VERSION, true);
  start.setUint32(8, headerBytes.byteLength, true);
  snapshot.set(headerBytes, START_BYTES);
  for (const { place: part, bytes } of bodies) snapshot.set(bytes, bodyStart + part.offset);
  return snapshot;
}

/**
 * The text indexes of a snapshot, their typed arrays views on its bytes (which must start at a multiple of 8 of
 * their buffer). Throws UnreadableSearchIndexSnapshot for another format version or a snapshot that does not hold
 * together; whether its bytes are those stored is the caller's to check (their checksum).
 */
export function decodeSearchIndexSnapshot(snapshot: Uint8Array): StoredTextIndexes {
  if (snapshot.byteOffset % ALIGNMENT !== 0) throw new UnreadableSearchIndexSnapshot('the snapshot is not aligned');
  if (snapshot.byteLength < START_BYTES) throw new UnreadableSearchIndexSnapshot('the snapshot is shorter than its start');
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) throw new UnreadableSearchIndexSnapshot('this machine is not little-endian');
  const start = new DataView(snapshot.buffer, snapshot.byteOffset, START_BYTES);
  if (start.getUint32(0, true) !== MAGIC) throw new UnreadableSearchIndexSnapshot('not a search index snapshot');
  const version = start.getUint32(4, true);
  if (version !== SEARCH_INDEX_FORMAT_VERSION) {
    throw new UnreadableSearchIndexSnapshot(`format version ${version}, this build reads ${SEARCH_INDEX_FORMAT_VERSION}`);
  }
  const headerLength = start.getUint32(8, true);
  if (START_BYTES + headerLength > snapshot.byteLength) throw new UnreadableSearchIndexSnapshot('the header runs past the snapshot');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let header: Header;
  try {
    header = JSON.parse(decoder.decode(snapshot.subarray(START_BYTES, START_BYTES + headerLength))) as Header;
  } catch (error) {
    throw new UnreadableSearchIndexSnapshot(`the header does not read: ${(error as Error).message}`);
  }
  const bodyStart = snapshot.byteOffset + aligned(START_BYTES + headerLength);
  const bodyEnd = snapshot.byteOffset + snapshot.byteLength;
  const bytesOf = (part: PartPlace | undefined, elementBytes: number): number => {
    if (part === undefined) throw new UnreadableSearchIndexSnapshot('a part is missing from the header');
    const offset = bodyStart + part.offset;
    const byteLength = part.length * elementBytes;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(byteLength) || offset % ALIGNMENT !== 0 || byteLength < 0) {
      throw new UnreadableSearchIndexSnapshot('a part is out of place');
    }
    if (offset + byteLength > bodyEnd) throw new UnreadableSearchIndexSnapshot('a part runs past the snapshot');
    return offset;
  };
  const arrayOf = (part: PartPlace | undefined, ...types: ArrayTypeName[]): StoredArray => {
    if (part === undefined || part.type === 'utf8' || !types.includes(part.type)) {
      throw new UnreadableSearchIndexSnapshot(`a part is not one of ${types.join(', ')}`);
    }
    const type = ARRAY_TYPES[part.type];
    return new type(snapshot.buffer as ArrayBuffer, bytesOf(part, type.BYTES_PER_ELEMENT), part.length);
  };
  const textOf = (part: PartPlace | undefined): string => {
    if (part?.type !== 'utf8') throw new UnreadableSearchIndexSnapshot('a text part is not UTF-8');
    const offset = bytesOf(part, 1);
    try {
      return decoder.decode(new Uint8Array(snapshot.buffer, offset, part.length));
    } catch (error) {
      throw new UnreadableSearchIndexSnapshot(`a text part does not read: ${(error as Error).message}`);
    }
  };
  const indexOf = (name: IndexName): StoredTextIndex => {
    const index = header.indexes?.[name];
    if (
      index === undefined ||
      !Array.isArray(index.fields) ||
      typeof index.hanStart !== 'number' ||
      typeof index.hanFirstAllHan !== 'boolean'
    ) {
      throw new UnreadableSearchIndexSnapshot(`the ${name} index is missing or incomplete`);
    }
    const { parts } = index;
    const idLengths = arrayOf(parts.idLengths, 'Int32Array');
    const joinedIds = textOf(parts.ids);
    const ids: string[] = new Array<string>(idLengths.length);
    let at = 0;
    for (let i = 0; i < idLengths.length; i++) ids[i] = joinedIds.slice(at, (at += idLengths[i]!));
    if (at !== joinedIds.length) throw new UnreadableSearchIndexSnapshot(`the ${name} index's ids do not add up`);
    return {
      fields: index.fields,
      parts: {
        ids,
        vocabulary: {
          packed: textOf(parts.packed),
          ends: arrayOf(parts.ends, 'Int32Array') as Int32Array,
          shared: arrayOf(parts.shared, 'Uint8Array') as Uint8Array,
          rankOf: arrayOf(parts.rankOf, 'Int32Array') as Int32Array,
          tokenOf: arrayOf(parts.tokenOf, 'Int32Array') as Int32Array,
          hanStart: index.hanStart,
        },
        hanFirstAllHan: index.hanFirstAllHan,
        offsets: arrayOf(parts.offsets, 'Int32Array') as Int32Array,
        postingDocuments: arrayOf(parts.postingDocuments, 'Int32Array') as Int32Array,
        postingFrequencies: arrayOf(parts.postingFrequencies, 'Uint16Array', 'Int32Array') as Uint16Array | Int32Array,
        fieldLengths: arrayOf(parts.fieldLengths, 'Uint16Array', 'Int32Array') as Uint16Array | Int32Array,
        averageFieldLengths: arrayOf(parts.averageFieldLengths, 'Float64Array') as Float64Array,
        longestFields: arrayOf(parts.longestFields, 'Int32Array') as Int32Array,
        maxScores: arrayOf(parts.maxScores, 'Float32Array') as Float32Array,
      },
    };
  };
  return { terms: indexOf('terms'), clauses: indexOf('clauses'), blocks: indexOf('blocks'), roles: indexOf('roles') };
}

/**
 * The index stored for these fields and documents (in this order), as the index is made from it; throws
 * UnreadableSearchIndexSnapshot when it was stored for other fields or documents (never a wrong index).
 */
export function storedIndexFor(stored: StoredTextIndex, fields: readonly string[], ids: readonly string[]): TextIndexParts {
  const sameFields = stored.fields.length === fields.length && stored.fields.every((field, i) => field === fields[i]);
  const storedIds = stored.parts.ids;
  const sameIds = storedIds.length === ids.length && storedIds.every((id, i) => id === ids[i]);
  if (!sameFields || !sameIds)
    throw new UnreadableSearchIndexSnapshot(`the stored index of ${fields.join(', ')} is not of these documents`);
  return stored.parts;
}
