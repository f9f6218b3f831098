// Inputs the tests call the tools with: a valid scenario (the figures are worked out in the assertions).
import { sampleScenario } from '@stdreg/server-kit/testing';

export { sampleScenario };

/** The same rules with the shares moved to 50/50. */
export function evenSplitScenario(): Record<string, unknown> {
  const scenario = sampleScenario();
  const tiers = scenario['tiers'] as Record<string, unknown>[];
  tiers[1] = {
    ...tiers[1],
    shares: [
      { participantId: 'alice', basisPoints: 5000 },
      { participantId: 'bob', basisPoints: 5000 },
    ],
  };
  return scenario;
}

/** Shares that do not add up to 10000. */
export function brokenScenario(): Record<string, unknown> {
  const scenario = sampleScenario();
  const tiers = scenario['tiers'] as Record<string, unknown>[];
  tiers[1] = {
    ...tiers[1],
    shares: [
      { participantId: 'alice', basisPoints: 6000 },
      { participantId: 'bob', basisPoints: 3000 },
    ],
  };
  return scenario;
}

/** One valid call of every tool, for the checks that apply to all of them (refusals without authorization). */
export function validToolCalls(): Record<string, Record<string, unknown>> {
  return {
    resolve_term: { text: 'cap' },
    validate_standard_reference: { reference: 'RUL-3@2.0' },
    validate_taskspec: { taskSpec: { taskCode: 'TSK-001' } },
    compare_standard_versions: { sectionId: 'RUL-3', from: '1.0', to: '2.0' },
    draft_alignment_report: { practice: 'We split revenue in basis points.' },
    recommend_role: { description: 'approves settlements' },
    draft_onboarding_profile: { role: 'investor' },
    assess_readiness: { role: 'investor' },
    propose_task_path: { goal: 'TSK-005' },
    simulate_operating_plan: { content: sampleScenario() },
    draft_split_project: {
      name: 'Refused draft',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    },
    validate_split_rule: { content: sampleScenario() },
    calculate_draft_settlement: { content: sampleScenario() },
    explain_settlement: { content: sampleScenario() },
    compare_rule_versions: { before: sampleScenario(), after: evenSplitScenario() },
    draft_invitation: { email: 'a@example.com', role: 'investor', organizationName: 'Studio' },
  };
}
