import { kthLargest } from './kth-largest';

/**
 * Whether fewer than `wanted` of the documents found by the first pass have a lower bound above a reach (the decision
 * of CompactTextIndex.candidates before the last term), told without reading every document found at each term: an
 * alignment search's whole practice has a hundred terms and meets ten thousand documents at full size, while the
 * documents above the reach are a few until the last terms. A reading of them all counts those above and sets a
 * level below the reach with at most `spare` (about half of what `wanted` leaves) of the others above it; then each
 * term's documents are counted (again, if they already were) when above that level. While the level is not above the
 * reach, no document is above the reach but those counted and the spare ones: if they are fewer than `wanted`, so are
 * the documents above. Else every document is read again.
 */
export class DocumentsAboveReach {
  private read = false;
  /** Every document above the level but the spare ones, some more than once. */
  private counted = 0;
  /** The documents that were above the level, but not the reach, when every document was read. */
  private spare = 0;
  private level = 0;

  constructor(
    private readonly partial: Float64Array,
    private readonly partialTerms: Uint16Array,
    /** Room for a lower bound of each document. */
    private readonly lowerBounds: Float64Array,
    /** What a lower bound is multiplied by before it is compared with the reach (CompactTextIndex's rounding slack). */
    private readonly slack: number,
  ) {}

  /** Notes documents[from, to), whose lower bounds a term has just raised (repeats allowed). */
  raised(documents: ArrayLike<number>, from: number, to: number): void {
    if (!this.read) return;
    const { partial, partialTerms, level } = this;
    let counted = 0;
    for (let i = from; i < to; i++) {
      const document = documents[i]!;
      if (partial[document]! * partialTerms[document]! > level) counted++;
    }
    this.counted += counted;
  }

  /** Whether fewer than `wanted` of the documents (all those found, each once) stay above `reach` once multiplied by the slack. */
  fewerThan(wanted: number, documents: ArrayLike<number>, reach: number): boolean {
    if (this.read && this.level * this.slack <= reach && this.counted + this.spare < wanted) return true;
    const { partial, partialTerms, lowerBounds, slack } = this;
    let count = 0;
    let below = 0;
    for (let i = 0; i < documents.length; i++) {
      const document = documents[i]!;
      const lowerBound = partial[document]! * partialTerms[document]!;
      if (lowerBound * slack > reach) count++;
      else lowerBounds[below++] = lowerBound;
    }
    this.read = true;
    this.counted = count;
    const spare = Math.floor((wanted - count) / 2);
    if (spare < 1 || below <= spare) {
      // No room: the next decision reads every document again.
      this.level = Infinity;
      this.spare = 0;
    } else {
      this.level = kthLargest(lowerBounds.subarray(0, below), spare + 1);
      this.spare = 0;
      for (let i = 0; i < below; i++) if (lowerBounds[i]! > this.level) this.spare++;
    }
    return count < wanted;
  }
}
