// A located validation error of scenario content; `code` is stable, `message` is for people.
import type { ScenarioContent } from './scenario-content';

export const SCENARIO_ERROR_CODES = [
  'invalid_type',
  'required',
  'unknown_key',
  'too_few_items',
  'too_many_items',
  'invalid_id',
  'invalid_period_id',
  'empty_text',
  'text_too_long',
  'invalid_currency',
  'unsupported_currency',
  'invalid_amount',
  'too_many_decimals',
  'amount_too_large',
  'negative_amount',
  'invalid_basis_points',
  'invalid_tier_kind',
  'duplicate_period_id',
  'duplicate_participant_id',
  'duplicate_tier_id',
  'duplicate_participant_in_tier',
  'unknown_participant',
  'shares_not_10000',
  'cap_not_positive',
  'fixed_after_percentage',
  'last_tier_not_percentage',
  'last_tier_capped',
] as const;

export type ScenarioErrorCode = (typeof SCENARIO_ERROR_CODES)[number];

export interface ScenarioError {
  /** RFC 6901 JSON Pointer into the content, e.g. "/tiers/2/shares/1/basisPoints"; "" is the whole content. */
  path: string;
  code: ScenarioErrorCode;
  message: string;
}

export type ScenarioValidation = { ok: true; scenario: ScenarioContent } | { ok: false; errors: ScenarioError[] };
