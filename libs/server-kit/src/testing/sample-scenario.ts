/** A valid split scenario for the tests of every app: a fixed platform fee, then a 60/40 revenue share. */
export function sampleScenario(): Record<string, unknown> {
  return {
    currency: 'EUR',
    periods: [
      { periodId: '2026-01', revenue: '10000.00', costs: '0.00' },
      { periodId: '2026-02', revenue: '12000.00', costs: '2500.01' },
    ],
    participants: [
      { participantId: 'platform', name: { en: 'Platform', 'zh-Hans': '平台' }, legalEntityId: 'LEI-PLATFORM-0001' },
      { participantId: 'alice', name: { en: 'Alice Studio', 'zh-Hans': '爱丽丝工作室' }, legalEntityId: 'LEI-ALICE-0002' },
      { participantId: 'bob', name: { en: 'Bob Games', 'zh-Hans': '鲍勃游戏' }, legalEntityId: 'LEI-BOB-0003' },
    ],
    tiers: [
      {
        tierId: 'platform-fee',
        kind: 'fixed',
        label: { en: 'Platform fee', 'zh-Hans': '平台费' },
        allocations: [{ participantId: 'platform', amount: '500.00' }],
      },
      {
        tierId: 'revenue-share',
        kind: 'percentage',
        label: { en: 'Revenue share', 'zh-Hans': '收入分成' },
        shares: [
          { participantId: 'alice', basisPoints: 6000 },
          { participantId: 'bob', basisPoints: 4000 },
        ],
      },
    ],
  };
}
