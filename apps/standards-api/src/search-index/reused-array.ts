/**
 * A typed array kept between searches and lent for one use at a time, grown (doubled) when a use needs more: a
 * search's working arrays (a prefix word's tokens in order, a term's bounds, its postings while they are ordered by
 * document) each made new would be off the heap, and V8 runs a full collection of the whole heap (the release's
 * indexes) for every 64 MB of them, about every 200 new term names at full size.
 */
export class ReusedArray<T extends Int32Array | Float64Array> {
  private values: T;

  constructor(private readonly make: (length: number) => T) {
    this.values = make(0);
  }

  /** The first `length` places (their values are what the last use left): valid until the next call. */
  take(length: number): T {
    if (this.values.length < length) this.values = this.make(Math.max(length, this.values.length * 2));
    return this.values.subarray(0, length) as T;
  }
}

export const reusedInt32Array = (): ReusedArray<Int32Array> => new ReusedArray((length) => new Int32Array(length));
export const reusedFloat64Array = (): ReusedArray<Float64Array> => new ReusedArray((length) => new Float64Array(length));
