import { diffRuleVersions, type PercentageTier, type ScenarioContent } from '../src';
import { studioScenario } from './support/scenarios';

function revised(change: (scenario: ScenarioContent) => void): ScenarioContent {
  const scenario = studioScenario();
  change(scenario);
  return scenario;
}

const kinds = (before: ScenarioContent, after: ScenarioContent) =>
  diffRuleVersions(before, after).map(({ description: _, ...facts }) => facts);

describe('diffRuleVersions', () => {
  it('finds no change between equal rules, even when amounts are written differently or periods differ', () => {
    const after = revised((scenario) => {
      scenario.tiers[0] = { ...scenario.tiers[0]!, kind: 'fixed', allocations: [{ participantId: 'platform', amount: '500' }] };
      scenario.periods = [{ periodId: '2027-01', revenue: '1.00', costs: '0.00' }];
    });
    expect(diffRuleVersions(studioScenario(), after)).toEqual([]);
  });

  it('reports a share change per participant with both basis points and a bilingual sentence', () => {
    const after = revised((scenario) => {
      (scenario.tiers[2] as PercentageTier).shares = [
        { participantId: 'alice', basisPoints: 5500 },
        { participantId: 'bob', basisPoints: 4000 },
        { participantId: 'platform', basisPoints: 500 },
      ];
    });
    expect(diffRuleVersions(studioScenario(), after)).toEqual([
      {
        kind: 'share_changed',
        tierId: 'revenue-share',
        participantId: 'alice',
        before: 6000,
        after: 5500,
        description: {
          en: "Tier revenue-share: alice's share changes from 6000 basis points (60%) to 5500 basis points (55%)",
          'zh-Hans': '层级 revenue-share：alice 的份额由 6000 个基点（60%）变为 5500 个基点（55%）',
        },
      },
      {
        kind: 'share_changed',
        tierId: 'revenue-share',
        participantId: 'platform',
        before: null,
        after: 500,
        description: {
          en: 'Tier revenue-share: platform now gets 500 basis points (5%)',
          'zh-Hans': '层级 revenue-share：platform 新获得 500 个基点（5%）的份额',
        },
      },
    ]);
  });

  it('reports cap and fixed amount changes in their currency, in tier order', () => {
    const after = revised((scenario) => {
      (scenario.tiers[1] as PercentageTier).capAmount = '2000';
      scenario.tiers[0] = { ...scenario.tiers[0]!, kind: 'fixed', allocations: [{ participantId: 'platform', amount: '750.00' }] };
    });
    const changes = diffRuleVersions(studioScenario(), after);
    expect(changes.map(({ description }) => description)).toEqual([
      {
        en: 'Tier platform-fee: the fixed amount to platform changes from 500.00 EUR to 750.00 EUR',
        'zh-Hans': '层级 platform-fee：支付给 platform 的固定金额由 500.00 EUR 变为 750.00 EUR',
      },
      {
        en: 'Tier investor-pool: the cap changes from 1000.00 EUR to 2000.00 EUR',
        'zh-Hans': '层级 investor-pool：上限由 1000.00 EUR 变为 2000.00 EUR',
      },
    ]);
    expect(changes[1]).toMatchObject({
      kind: 'cap_changed',
      before: { amount: '1000.00', currency: 'EUR' },
      after: { amount: '2000.00', currency: 'EUR' },
    });
  });

  it('reports participants and tiers added and removed, and the fewest moves that explain a new order', () => {
    // Of the two kept tiers swapped, one move explains the new order; the earlier one is reported.
    const after = revised((scenario) => {
      scenario.participants = scenario.participants.filter((participant) => participant.participantId !== 'platform');
      scenario.participants.push({ participantId: 'carol', name: { en: 'Carol', 'zh-Hans': '卡罗尔' }, legalEntityId: 'LEI-CAROL' });
      const [, pool, share] = scenario.tiers;
      scenario.tiers = [
        {
          tierId: 'bonus',
          kind: 'percentage',
          label: { en: 'Bonus', 'zh-Hans': '奖金' },
          shares: [{ participantId: 'carol', basisPoints: 10000 }],
          capAmount: '100.00',
        },
        { ...share!, tierId: 'revenue-share', kind: 'percentage', capAmount: '5000.00' } as PercentageTier,
        { ...pool!, capAmount: undefined } as PercentageTier,
      ];
    });
    expect(kinds(studioScenario(), after)).toEqual([
      { kind: 'participant_removed', participantId: 'platform' },
      { kind: 'participant_added', participantId: 'carol' },
      { kind: 'tier_removed', tierId: 'platform-fee', tierKind: 'fixed', index: 0 },
      { kind: 'tier_added', tierId: 'bonus', tierKind: 'percentage', index: 0 },
      { kind: 'tier_moved', tierId: 'investor-pool', fromIndex: 1, toIndex: 2 },
      { kind: 'cap_changed', tierId: 'revenue-share', before: null, after: { amount: '5000.00', currency: 'EUR' } },
      { kind: 'cap_changed', tierId: 'investor-pool', before: { amount: '1000.00', currency: 'EUR' }, after: null },
    ]);
    const moved = diffRuleVersions(studioScenario(), after)[4]!;
    expect(moved.description).toEqual({
      en: 'Tier investor-pool moves from position 2 to position 3',
      'zh-Hans': '层级 investor-pool 由第 2 位移至第 3 位',
    });
  });

  it('reports one move when one tier goes from first to last past the others', () => {
    const tier = (tierId: string): PercentageTier => ({
      tierId,
      kind: 'percentage',
      label: { en: tierId, 'zh-Hans': tierId },
      shares: [{ participantId: 'alice', basisPoints: 10000 }],
    });
    const before = revised((scenario) => (scenario.tiers = ['a', 'b', 'c', 'd'].map(tier)));
    const after = revised((scenario) => (scenario.tiers = ['b', 'c', 'd', 'a'].map(tier)));
    expect(kinds(before, after)).toEqual([{ kind: 'tier_moved', tierId: 'a', fromIndex: 0, toIndex: 3 }]);
  });

  it('reports a new fixed payment order, a renamed tier, a changed participant and a changed currency', () => {
    const after = revised((scenario) => {
      scenario.currency = 'USD';
      scenario.participants[1] = { ...scenario.participants[1]!, role: 'investor' };
      scenario.tiers[0] = {
        tierId: 'platform-fee',
        kind: 'fixed',
        label: { en: 'Service fee', 'zh-Hans': '服务费' },
        allocations: [
          { participantId: 'bob', amount: '10.00' },
          { participantId: 'platform', amount: '500.00' },
        ],
      };
    });
    const changes = diffRuleVersions(studioScenario(), after);
    expect(changes.map((change) => change.kind)).toEqual([
      'currency_changed',
      'participant_details_changed',
      'tier_label_changed',
      'fixed_amount_changed',
      'fixed_amount_changed',
      'cap_changed',
    ]);
    expect(changes.map((change) => change.description.en)).toEqual([
      'Currency changes from EUR to USD',
      'Participant alice changes role',
      'Tier platform-fee is renamed from "Platform fee" to "Service fee"',
      'Tier platform-fee: bob now receives a fixed 10.00 USD',
      'Tier platform-fee: the fixed amount to platform changes from 500.00 EUR to 500.00 USD',
      'Tier investor-pool: the cap changes from 1000.00 EUR to 1000.00 USD',
    ]);
    expect(changes[2]!.description['zh-Hans']).toBe('层级 platform-fee 的名称由“平台费”改为“服务费”');
  });

  it('reports a reordering of fixed allocations, which changes who is paid first', () => {
    const twoFees = (order: string[]) =>
      revised((scenario) => {
        scenario.tiers[0] = {
          tierId: 'platform-fee',
          kind: 'fixed',
          label: { en: 'Platform fee', 'zh-Hans': '平台费' },
          allocations: order.map((participantId) => ({ participantId, amount: '500.00' })),
        };
      });
    expect(diffRuleVersions(twoFees(['platform', 'bob']), twoFees(['bob', 'platform']))).toEqual([
      {
        kind: 'allocation_order_changed',
        tierId: 'platform-fee',
        before: ['platform', 'bob'],
        after: ['bob', 'platform'],
        description: {
          en: 'Tier platform-fee: payment order changes from platform, bob to bob, platform',
          'zh-Hans': '层级 platform-fee：支付顺序由 platform、bob 变为 bob、platform',
        },
      },
    ]);
  });

  it('reports a fixed allocation dropped from a tier as removed, not as a new payment order', () => {
    const fees = (participantIds: string[]) =>
      revised((scenario) => {
        scenario.tiers[0] = {
          tierId: 'platform-fee',
          kind: 'fixed',
          label: { en: 'Platform fee', 'zh-Hans': '平台费' },
          allocations: participantIds.map((participantId) => ({ participantId, amount: '500.00' })),
        };
      });
    expect(kinds(fees(['platform', 'bob', 'alice']), fees(['platform', 'alice']))).toEqual([
      {
        kind: 'fixed_amount_changed',
        tierId: 'platform-fee',
        participantId: 'bob',
        before: { amount: '500.00', currency: 'EUR' },
        after: null,
      },
    ]);
  });

  it("reports a participant's new legal entity, whose ledger its allocations go to", () => {
    const after = revised((scenario) => {
      scenario.participants[1] = { ...scenario.participants[1]!, legalEntityId: 'LEI-ALICE-HOLDING' };
    });
    expect(diffRuleVersions(studioScenario(), after)).toEqual([
      {
        kind: 'participant_details_changed',
        participantId: 'alice',
        details: ['legalEntityId'],
        description: { en: 'Participant alice changes legal entity', 'zh-Hans': '参与方 alice 的法律实体有变更' },
      },
    ]);
  });

  it('reports a name or a tier label changed in Chinese only', () => {
    const after = revised((scenario) => {
      scenario.participants[2] = { ...scenario.participants[2]!, name: { en: 'Bob Games', 'zh-Hans': '鲍勃游戏公司' } };
      scenario.tiers[1] = { ...scenario.tiers[1]!, label: { en: 'Investor pool', 'zh-Hans': '投资者池' } } as PercentageTier;
    });
    expect(kinds(studioScenario(), after)).toEqual([
      { kind: 'participant_details_changed', participantId: 'bob', details: ['name'] },
      {
        kind: 'tier_label_changed',
        tierId: 'investor-pool',
        before: { en: 'Investor pool', 'zh-Hans': '投资人池' },
        after: { en: 'Investor pool', 'zh-Hans': '投资者池' },
      },
    ]);
  });
});
