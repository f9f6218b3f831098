// Failures of the engine's own functions (as opposed to scenario validation, which reports a list).
export const SPLIT_ENGINE_ERROR_CODES = [
  'invalid_amount',
  'too_many_decimals',
  'amount_too_large',
  'unsupported_currency',
  'invalid_shares',
  'negative_amount',
  'unknown_period',
  'invalid_scenario',
  'comparison_size',
  'currency_mismatch',
  'not_canonicalizable',
] as const;

export type SplitEngineErrorCode = (typeof SPLIT_ENGINE_ERROR_CODES)[number];

export class SplitEngineError extends Error {
  override readonly name = 'SplitEngineError';

  constructor(
    readonly code: SplitEngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}
