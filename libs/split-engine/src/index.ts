// @stdreg/split-engine: pure functions and types of the revenue-split domain. No I/O.
export { SPLIT_ENGINE_ERROR_CODES, SplitEngineError, type SplitEngineErrorCode } from './errors';

export { SUPPORTED_CURRENCIES, isSupportedCurrency, minorDigitsOf } from './money/currencies';
export { MAX_INTEGER_DIGITS, MAX_TOTAL_INTEGER_DIGITS, formatAmount, formatMoney, parseAmount, parseTotal } from './money/decimal-amount';
export { WHOLE_IN_BASIS_POINTS, basisPointsAsPercent } from './money/basis-points';

export type {
  DecimalAmount,
  FixedAllocation,
  FixedTier,
  Participant,
  PercentageTier,
  ScenarioContent,
  ScenarioPeriod,
  Tier,
  TierKind,
  TierShare,
} from './scenario/scenario-content';
export { SCENARIO_ERROR_CODES, type ScenarioError, type ScenarioErrorCode, type ScenarioValidation } from './scenario/scenario-error';
export { MAX_SETTLEMENT_PAYMENTS, validateScenario } from './scenario/validate-scenario';
export { MAX_PERIODS } from './scenario/validation/read-periods';
export { MAX_PARTICIPANTS } from './scenario/validation/read-participants';
export { MAX_TIERS } from './scenario/validation/read-tiers';

export { allocate, allocateParts, type AllocatedPart, type ShareOfAmount } from './allocation/allocate';

export type {
  FixedPayment,
  FixedTierSettlement,
  ParticipantTotal,
  PercentageTierSettlement,
  PeriodSettlement,
  ScenarioSettlement,
  SharePayment,
  TierSettlement,
} from './settlement/settlement';
export { settlePeriod } from './settlement/settle-period';
export { settleScenario } from './settlement/settle-scenario';
export { formatSettlement, type FormattedSettlement, type WithDecimalAmounts } from './settlement/format-settlement';

export {
  MAX_COMPARED_SCENARIOS,
  MIN_COMPARED_SCENARIOS,
  compareScenarios,
  type ComparedAmount,
  type ComparedParticipant,
  type ComparedScenario,
  type LabelledScenario,
  type ParticipantColumn,
  type ScenarioComparison,
} from './comparison/compare-scenarios';

export type { MoneyValue, ParticipantDetail, RuleChange, RuleChangeFacts, RuleChangeKind } from './rule-diff/rule-change';
export { diffRuleVersions } from './rule-diff/diff-rule-versions';

export type {
  DistributableFacts,
  ExplanationFacts,
  ExplanationStep,
  FixedPaymentFacts,
  PercentageSplitFacts,
  TotalsFacts,
} from './explanation/explanation-step';
export { explainSettlement } from './explanation/explain-settlement';

export { applyMergePatch } from './json/merge-patch';
export { canonicalJson } from './json/canonical-json';
export { rulesDigest } from './json/rules-digest';
