// Splits an amount of minor units by basis points so that the parts sum exactly to the amount.
import { SplitEngineError } from '../errors';
import { WHOLE_IN_BASIS_POINTS } from '../money/basis-points';

export interface ShareOfAmount {
  id: string;
  basisPoints: number;
}

export interface AllocatedPart {
  id: string;
  basisPoints: number;
  amount: bigint;
  /** Minor units (0 or 1) this part got beyond its floored exact share, from the leftover. */
  roundingUnits: number;
}

/**
 * Largest remainder: each part is first floor(amount × basisPoints / 10000); the minor units
 * left over go one each to the parts with the largest remainders. Ties are broken by larger
 * basisPoints first, then by id ascending (UTF-16 code units), so the result does not depend on
 * the order of `shares`.
 *
 * Throws SplitEngineError for a negative amount, non-integer or negative basis points, basis
 * points not summing to exactly 10000, or a repeated id.
 */
export function allocate(amount: bigint, shares: readonly ShareOfAmount[]): Map<string, bigint> {
  return new Map(allocateParts(amount, shares).map((part) => [part.id, part.amount]));
}

/** `allocate`, with which parts received rounding, in the order of `shares`. */
export function allocateParts(amount: bigint, shares: readonly ShareOfAmount[]): AllocatedPart[] {
  assertAllocatable(amount, shares);
  const whole = BigInt(WHOLE_IN_BASIS_POINTS);
  const exact = shares.map((share) => {
    const numerator = amount * BigInt(share.basisPoints);
    return { share, floor: numerator / whole, remainder: numerator % whole };
  });
  const leftover = amount - exact.reduce((sum, part) => sum + part.floor, 0n);
  const receivers = new Set(
    [...exact]
      .sort((a, b) => compareForLeftover(a, b))
      .slice(0, Number(leftover))
      .map((part) => part.share.id),
  );
  return exact.map(({ share, floor }) => {
    const roundingUnits = receivers.has(share.id) ? 1 : 0;
    return { id: share.id, basisPoints: share.basisPoints, amount: floor + BigInt(roundingUnits), roundingUnits };
  });
}

type ExactPart = { share: ShareOfAmount; remainder: bigint };

function compareForLeftover(a: ExactPart, b: ExactPart): number {
  if (a.remainder !== b.remainder) return a.remainder > b.remainder ? -1 : 1;
  if (a.share.basisPoints !== b.share.basisPoints) return b.share.basisPoints - a.share.basisPoints;
  return a.share.id < b.share.id ? -1 : a.share.id > b.share.id ? 1 : 0;
}

function assertAllocatable(amount: bigint, shares: readonly ShareOfAmount[]): void {
  if (amount < 0n) throw new SplitEngineError('negative_amount', `cannot allocate a negative amount (${amount} minor units)`);
  const ids = new Set<string>();
  let sum = 0;
  for (const share of shares) {
    if (!Number.isSafeInteger(share.basisPoints) || share.basisPoints < 0) {
      throw new SplitEngineError(
        'invalid_shares',
        `share "${share.id}" has ${share.basisPoints} basis points; a share is a whole number from 0`,
      );
    }
    if (ids.has(share.id)) throw new SplitEngineError('invalid_shares', `share "${share.id}" appears twice`);
    ids.add(share.id);
    sum += share.basisPoints;
  }
  if (sum !== WHOLE_IN_BASIS_POINTS) {
    throw new SplitEngineError('invalid_shares', `shares sum to ${sum} basis points; they must sum to exactly ${WHOLE_IN_BASIS_POINTS}`);
  }
}
