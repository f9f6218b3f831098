import { reusedFloat64Array, reusedInt32Array } from './reused-array';

describe('ReusedArray', () => {
  it('lends the length asked for, in one array kept between uses and grown when a use needs more', () => {
    const reused = reusedInt32Array();
    const first = reused.take(3);
    first.set([7, 8, 9]);
    expect(first).toHaveLength(3);
    const again = reused.take(2);
    expect([...again]).toEqual([7, 8]);
    expect(again.buffer).toBe(first.buffer);
    const grown = reused.take(40);
    expect(grown).toHaveLength(40);
    expect(grown.buffer).not.toBe(first.buffer);
    expect(reused.take(5).buffer).toBe(grown.buffer);
  });

  it('lends nothing for no length, and doubles at least', () => {
    const reused = reusedFloat64Array();
    expect(reused.take(0)).toHaveLength(0);
    reused.take(10);
    expect(reused.take(11).buffer.byteLength).toBe(20 * Float64Array.BYTES_PER_ELEMENT);
  });
});
