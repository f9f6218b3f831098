// The JSON form of a settlement: every bigint amount as a decimal string of the settlement's currency.
import { formatAmount } from '../money/decimal-amount';
import type { DecimalAmount } from '../scenario/scenario-content';
import type { PeriodSettlement, ScenarioSettlement } from './settlement';

export type WithDecimalAmounts<T> = T extends bigint
  ? DecimalAmount
  : T extends readonly (infer Item)[]
    ? WithDecimalAmounts<Item>[]
    : T extends object
      ? { [Key in keyof T]: WithDecimalAmounts<T[Key]> }
      : T;

export type FormattedSettlement<S extends PeriodSettlement | ScenarioSettlement> = WithDecimalAmounts<S>;

/** For JSON responses and tool results, which cannot carry bigint. */
export function formatSettlement<S extends PeriodSettlement | ScenarioSettlement>(settlement: S): FormattedSettlement<S> {
  // The walk below maps exactly bigint -> string and keeps every other value's shape, which is what
  // WithDecimalAmounts<S> describes; TypeScript cannot follow a recursive walk, hence the cast.
  return withDecimalAmounts(settlement, settlement.currency) as FormattedSettlement<S>;
}

function withDecimalAmounts(value: unknown, currency: string): unknown {
  if (typeof value === 'bigint') return formatAmount(value, currency);
  if (Array.isArray(value)) return value.map((item) => withDecimalAmounts(item, currency));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withDecimalAmounts(item, currency)]));
  }
  return value;
}
