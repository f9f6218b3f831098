import fc from 'fast-check';
import { allocate, allocateParts, type ShareOfAmount } from '../src';

const entries = (allocation: Map<string, bigint>) => Object.fromEntries(allocation);

describe('allocate', () => {
  it('splits 100 minor units 3334/3333/3333 as 34/33/33: the largest remainder takes the leftover unit', () => {
    const shares = [
      { id: 'alice', basisPoints: 3334 },
      { id: 'bob', basisPoints: 3333 },
      { id: 'carol', basisPoints: 3333 },
    ];
    expect(entries(allocate(100n, shares))).toEqual({ alice: 34n, bob: 33n, carol: 33n });
  });

  it('gives the leftover unit of a tie in remainder and basis points to the id that sorts first', () => {
    // 100 × 3350/10000 = 33.5 for carol and alice, 33 for bob: one unit left, carol and alice tie.
    const shares = [
      { id: 'carol', basisPoints: 3350 },
      { id: 'alice', basisPoints: 3350 },
      { id: 'bob', basisPoints: 3300 },
    ];
    expect(entries(allocate(100n, shares))).toEqual({ carol: 33n, alice: 34n, bob: 33n });
  });

  it('gives the leftover unit of a tie in remainder to the larger basis points before looking at ids', () => {
    // 33.5 for alice (3350) and 49.5 for bob (4950): equal remainders, bob's share is larger.
    const shares = [
      { id: 'alice', basisPoints: 3350 },
      { id: 'bob', basisPoints: 4950 },
      { id: 'carol', basisPoints: 1700 },
    ];
    expect(entries(allocate(100n, shares))).toEqual({ alice: 33n, bob: 50n, carol: 17n });
  });

  it('hands two leftover units one each, largest remainders first', () => {
    // 2 × 3334/10000 = 0.6668, 2 × 3333/10000 = 0.6666 twice: floors are all 0, two units left.
    const parts = allocateParts(2n, [
      { id: 'ben', basisPoints: 3333 },
      { id: 'chi', basisPoints: 3334 },
      { id: 'aki', basisPoints: 3333 },
    ]);
    expect(parts).toEqual([
      { id: 'ben', basisPoints: 3333, amount: 0n, roundingUnits: 0 },
      { id: 'chi', basisPoints: 3334, amount: 1n, roundingUnits: 1 },
      { id: 'aki', basisPoints: 3333, amount: 1n, roundingUnits: 1 },
    ]);
  });

  it('splits exactly when the shares divide the amount', () => {
    expect(
      entries(
        allocate(950000n, [
          { id: 'alice', basisPoints: 6000 },
          { id: 'bob', basisPoints: 4000 },
        ]),
      ),
    ).toEqual({
      alice: 570000n,
      bob: 380000n,
    });
  });

  it('gives nothing to a zero share and everything of zero to everyone', () => {
    expect(
      entries(
        allocate(7n, [
          { id: 'a', basisPoints: 10000 },
          { id: 'b', basisPoints: 0 },
        ]),
      ),
    ).toEqual({ a: 7n, b: 0n });
    expect(
      entries(
        allocate(0n, [
          { id: 'a', basisPoints: 5000 },
          { id: 'b', basisPoints: 5000 },
        ]),
      ),
    ).toEqual({ a: 0n, b: 0n });
  });

  it.each([
    ['shares not summing to 10000', 10n, [{ id: 'a', basisPoints: 9999 }], 'invalid_shares'],
    [
      'a fractional share',
      10n,
      [
        { id: 'a', basisPoints: 5000.5 },
        { id: 'b', basisPoints: 4999.5 },
      ],
      'invalid_shares',
    ],
    [
      'a negative share',
      10n,
      [
        { id: 'a', basisPoints: 10001 },
        { id: 'b', basisPoints: -1 },
      ],
      'invalid_shares',
    ],
    [
      'a repeated id',
      10n,
      [
        { id: 'a', basisPoints: 5000 },
        { id: 'a', basisPoints: 5000 },
      ],
      'invalid_shares',
    ],
    ['a negative amount', -1n, [{ id: 'a', basisPoints: 10000 }], 'negative_amount'],
  ])('refuses %s', (_case, amount, shares, code) => {
    expect(() => allocate(amount as bigint, shares as ShareOfAmount[])).toThrow(expect.objectContaining({ code }));
  });
});

/** 1 to 12 shares with distinct ids summing to exactly 10000 basis points, some possibly zero. */
const shareSets = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 0, max: 10000 }), { maxLength: 11 }),
    fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 12, maxLength: 12 }),
  )
  .map(([cuts, ids]) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 10000];
    return points.slice(1).map((point, index) => ({ id: ids[index]!, basisPoints: point - points[index]! }));
  });
const amounts = fc.bigInt({ min: 0n, max: 10n ** 15n });

describe('allocate, for any amount and shares summing to 10000', () => {
  it('sums exactly to the amount with no negative part', () => {
    fc.assert(
      fc.property(amounts, shareSets, (amount, shares) => {
        const parts = [...allocate(amount, shares).values()];
        return parts.reduce((sum, part) => sum + part, 0n) === amount && parts.every((part) => part >= 0n);
      }),
    );
  });

  it('gives each part its exact share rounded down or up, never further off', () => {
    fc.assert(
      fc.property(amounts, shareSets, (amount, shares) => {
        const allocation = allocate(amount, shares);
        return shares.every(({ id, basisPoints }) => {
          const floor = (amount * BigInt(basisPoints)) / 10000n;
          const part = allocation.get(id)!;
          return part === floor || part === floor + 1n;
        });
      }),
    );
  });

  it('does not depend on the order of the shares', () => {
    const shuffled = shareSets.chain((shares) =>
      fc.tuple(fc.constant(shares), fc.shuffledSubarray(shares, { minLength: shares.length, maxLength: shares.length })),
    );
    fc.assert(
      fc.property(amounts, shuffled, (amount, [shares, reordered]) => {
        expect(entries(allocate(amount, reordered))).toEqual(entries(allocate(amount, shares)));
      }),
    );
  });
});
