/**
 * Each document's own postings (a forward index): its lists, as a token times the number of fields plus the field,
 * ascending, and its frequency in each. Made once from the postings by list: the exact pass of a bounded search then
 * scores its few hundred candidates from their own tokens instead of reading every list of the query again for them
 * (a word found by prefix has thousands of lists).
 */
export class DocumentTokens {
  /** Document d's postings are those from starts[d] to starts[d + 1]. */
  readonly starts: Int32Array;
  readonly lists: Int32Array;
  readonly frequencies: Uint16Array | Int32Array;

  constructor(offsets: Int32Array, postingDocuments: Int32Array, postingFrequencies: Uint16Array | Int32Array, documentCount: number) {
    const starts = new Int32Array(documentCount + 1);
    for (let posting = 0; posting < postingDocuments.length; posting++) starts[postingDocuments[posting]! + 1]!++;
    for (let document = 0; document < documentCount; document++) starts[document + 1]! += starts[document]!;
    const next = starts.slice(0, documentCount);
    const lists = new Int32Array(postingDocuments.length);
    const frequencies = postingFrequencies instanceof Uint16Array ? new Uint16Array(lists.length) : new Int32Array(lists.length);
    // The lists in ascending order, so each document's postings are in the lists' order.
    for (let list = 0; list < offsets.length - 1; list++) {
      for (let posting = offsets[list]!; posting < offsets[list + 1]!; posting++) {
        const at = next[postingDocuments[posting]!]!++;
        lists[at] = list;
        frequencies[at] = postingFrequencies[posting]!;
      }
    }
    this.starts = starts;
    this.lists = lists;
    this.frequencies = frequencies;
  }

  /** The bytes of the three arrays. */
  get byteLength(): number {
    return this.starts.byteLength + this.lists.byteLength + this.frequencies.byteLength;
  }
}
