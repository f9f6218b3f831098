/** The most bits of a document number sorted on in one pass (2 048 buckets): 100 000 documents take two passes. */
const MOST_DIGIT_BITS = 11;

/** Four arrays of `length` places each, apart, for the sort to work in: the answer is two of them. */
export type WorkingArrays = (length: number) => [Int32Array, Int32Array, Int32Array, Int32Array];

/**
 * The places 0 … documents.length − 1 ordered by their document, places of one document in their own order (a
 * stable sort), and the documents in that order: a least-significant-digit radix sort, each pass moving the
 * documents with their places. A prefix's postings (tens of thousands) are ordered so in two passes over them,
 * where a comparison sort of one key per posting took over a millisecond (docs/decisions.md, "a term name asked
 * for the first time").
 */
export function placesByDocument(
  documents: Int32Array,
  working: WorkingArrays = (length) => [new Int32Array(length), new Int32Array(length), new Int32Array(length), new Int32Array(length)],
): { places: Int32Array; documents: Int32Array } {
  const count = documents.length;
  let largest = 0;
  for (let i = 0; i < count; i++) if (documents[i]! > largest) largest = documents[i]!;
  const bits = 32 - Math.clz32(largest);
  const passes = Math.ceil(bits / MOST_DIGIT_BITS);
  const digitBits = Math.ceil(bits / Math.max(passes, 1));
  const mask = (1 << digitBits) - 1;
  const starts = new Int32Array(mask + 1);
  let [places, keys, nextPlaces, nextKeys] = working(count);
  for (let i = 0; i < count; i++) places[i] = i;
  keys.set(documents);
  for (let pass = 0; pass < passes; pass++) {
    const shift = pass * digitBits;
    starts.fill(0);
    for (let i = 0; i < count; i++) starts[(keys[i]! >>> shift) & mask]!++;
    let start = 0;
    for (let digit = 0; digit <= mask; digit++) {
      const size = starts[digit]!;
      starts[digit] = start;
      start += size;
    }
    for (let i = 0; i < count; i++) {
      const key = keys[i]!;
      const at = starts[(key >>> shift) & mask]!++;
      nextKeys[at] = key;
      nextPlaces[at] = places[i]!;
    }
    [keys, nextKeys] = [nextKeys, keys];
    [places, nextPlaces] = [nextPlaces, places];
  }
  return { places, documents: keys };
}
