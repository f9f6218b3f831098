/** 10000 basis points are the whole (100%). */
export const WHOLE_IN_BASIS_POINTS = 10000;

/** 6000 -> "60", 3350 -> "33.5", 5 -> "0.05": a percentage for sentences, by integer arithmetic. */
export function basisPointsAsPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const hundredths = basisPoints % 100;
  if (hundredths === 0) return String(whole);
  return `${whole}.${String(hundredths).padStart(2, '0').replace(/0$/, '')}`;
}
