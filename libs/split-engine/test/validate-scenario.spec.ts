import { MAX_SETTLEMENT_PAYMENTS, validateScenario, type ScenarioError } from '../src';
import { raw, studioScenario, yenScenario } from './support/scenarios';

function errorsOf(content: unknown): Pick<ScenarioError, 'path' | 'code'>[] {
  const result = validateScenario(content);
  if (result.ok) throw new Error('expected the content to be refused');
  return result.errors.map(({ path, code }) => ({ path, code }));
}

function onlyError(content: unknown): ScenarioError {
  const result = validateScenario(content);
  if (result.ok) throw new Error('expected the content to be refused');
  expect(result.errors).toHaveLength(1);
  return result.errors[0]!;
}

describe('validateScenario', () => {
  it('accepts a complete scenario and returns a fresh copy of it', () => {
    const content = studioScenario();
    const result = validateScenario(content);
    expect(result).toEqual({ ok: true, scenario: content });
    expect(result.ok && result.scenario).not.toBe(content);
    expect(result.ok && result.scenario.tiers[1]).not.toBe(content.tiers[1]);
  });

  it('accepts yen amounts without decimals', () => {
    expect(validateScenario(yenScenario()).ok).toBe(true);
  });

  it('refuses shares that do not sum to 10000, naming the tier and the shortfall', () => {
    const content = raw(studioScenario());
    (content.tiers[2] as { shares: { basisPoints: number }[] }).shares[1]!.basisPoints = 3900;
    expect(onlyError(content)).toEqual({
      path: '/tiers/2/shares',
      code: 'shares_not_10000',
      message: 'Tier "revenue-share", shares sum to 9900 basis points, 100 short of 10000 (100%)',
    });
  });

  it('refuses shares over 10000, naming the excess', () => {
    const content = raw(studioScenario());
    (content.tiers[2] as { shares: { basisPoints: number }[] }).shares[1]!.basisPoints = 4001;
    expect(onlyError(content)).toEqual({
      path: '/tiers/2/shares',
      code: 'shares_not_10000',
      message: 'Tier "revenue-share", shares sum to 10001 basis points, 1 over 10000 (100%)',
    });
  });

  it('refuses a negative or fractional share even when the shares sum to 10000', () => {
    const negative = raw(studioScenario());
    (negative.participants as unknown[]).push({
      participantId: 'carol',
      name: { en: 'Carol', 'zh-Hans': '卡罗尔' },
      legalEntityId: 'LEI-C',
    });
    (negative.tiers[2] as { shares: unknown[] }).shares = [
      { participantId: 'alice', basisPoints: 6000 },
      { participantId: 'bob', basisPoints: 5000 },
      { participantId: 'carol', basisPoints: -1000 },
    ];
    expect(errorsOf(negative)).toEqual([{ path: '/tiers/2/shares/2/basisPoints', code: 'invalid_basis_points' }]);
    const fractional = raw(studioScenario());
    (fractional.tiers[2] as { shares: unknown[] }).shares = [
      { participantId: 'alice', basisPoints: 6000.5 },
      { participantId: 'bob', basisPoints: 3999.5 },
    ];
    expect(errorsOf(fractional)).toEqual([
      { path: '/tiers/2/shares/0/basisPoints', code: 'invalid_basis_points' },
      { path: '/tiers/2/shares/1/basisPoints', code: 'invalid_basis_points' },
    ]);
  });

  it('locates a bad share at its basisPoints, naming the tier and the participant', () => {
    const content = raw(studioScenario());
    (content.tiers[2] as { shares: { basisPoints: unknown }[] }).shares[1]!.basisPoints = 12000;
    expect(onlyError(content)).toEqual({
      path: '/tiers/2/shares/1/basisPoints',
      code: 'invalid_basis_points',
      message:
        'Tier "revenue-share", shares[1] (participant "bob"), basisPoints must be a whole number of basis points from 0 to 10000, found number 12000',
    });
  });

  it('refuses a share of a participant the scenario does not list', () => {
    const content = raw(studioScenario());
    (content.tiers[1] as { shares: { participantId: string }[] }).shares[0]!.participantId = 'zoe';
    expect(onlyError(content)).toEqual({
      path: '/tiers/1/shares/0/participantId',
      code: 'unknown_participant',
      message: 'Tier "investor-pool", shares[0] (participant "zoe"), participantId names "zoe", who is not among the participants',
    });
  });

  it('refuses a fixed allocation to an unknown participant and one participant twice in a tier', () => {
    const content = raw(studioScenario());
    const fee = content.tiers[0] as { allocations: unknown[] };
    fee.allocations.push({ participantId: 'ghost', amount: '1.00' }, { participantId: 'platform', amount: '2.00' });
    expect(errorsOf(content)).toEqual([
      { path: '/tiers/0/allocations/1/participantId', code: 'unknown_participant' },
      { path: '/tiers/0/allocations/2/participantId', code: 'duplicate_participant_in_tier' },
    ]);
  });

  it('refuses unknown keys at every level', () => {
    const content = raw(studioScenario());
    content['notes'] = 'x';
    (content.participants[0] as Record<string, unknown>)['nickname'] = 'P';
    (content.tiers[1] as Record<string, unknown>)['floorAmount'] = '1.00';
    (content.tiers[2] as { label: Record<string, unknown> }).label['fr'] = 'Partage';
    expect(errorsOf(content)).toEqual([
      { path: '/notes', code: 'unknown_key' },
      { path: '/participants/0/nickname', code: 'unknown_key' },
      { path: '/tiers/1/floorAmount', code: 'unknown_key' },
      { path: '/tiers/2/label/fr', code: 'unknown_key' },
    ]);
  });

  it('refuses amounts with more decimals than the currency has, negative amounts and numbers', () => {
    const yen = raw(yenScenario());
    (yen.periods[0] as Record<string, unknown>)['revenue'] = '100.5';
    expect(onlyError(yen)).toMatchObject({
      path: '/periods/0/revenue',
      code: 'too_many_decimals',
      message: expect.stringContaining('whole number'),
    });

    const euro = raw(studioScenario());
    (euro.periods[1] as Record<string, unknown>)['costs'] = '-5.00';
    (euro.periods[2] as Record<string, unknown>)['revenue'] = 300;
    (euro.tiers[0] as { allocations: Record<string, unknown>[] }).allocations[0]!['amount'] = '500.001';
    expect(errorsOf(euro)).toEqual([
      { path: '/periods/1/costs', code: 'negative_amount' },
      { path: '/periods/2/revenue', code: 'invalid_type' },
      { path: '/tiers/0/allocations/0/amount', code: 'too_many_decimals' },
    ]);
  });

  it('requires fixed tiers before percentage tiers and an uncapped percentage tier last', () => {
    const content = raw(studioScenario());
    const [fee, pool, share] = content.tiers;
    content.tiers = [pool, fee, share];
    expect(errorsOf(content)).toEqual([{ path: '/tiers/1/kind', code: 'fixed_after_percentage' }]);

    content.tiers = [fee, pool];
    expect(onlyError(content)).toMatchObject({ path: '/tiers/1/capAmount', code: 'last_tier_capped' });

    content.tiers = [fee];
    expect(onlyError(content)).toMatchObject({ path: '/tiers/0/kind', code: 'last_tier_not_percentage' });
  });

  it('refuses repeated ids of periods, participants and tiers, pointing at the repetition', () => {
    // Renaming bob to alice also leaves bob's shares pointing at nobody.
    const content = raw(studioScenario());
    (content.periods[2] as Record<string, unknown>)['periodId'] = '2026-01';
    (content.participants[2] as Record<string, unknown>)['participantId'] = 'alice';
    (content.tiers[2] as Record<string, unknown>)['tierId'] = 'investor-pool';
    expect(errorsOf(content)).toEqual([
      { path: '/periods/2/periodId', code: 'duplicate_period_id' },
      { path: '/participants/2/participantId', code: 'duplicate_participant_id' },
      { path: '/tiers/1/shares/1/participantId', code: 'unknown_participant' },
      { path: '/tiers/2/shares/1/participantId', code: 'unknown_participant' },
      { path: '/tiers/2/tierId', code: 'duplicate_tier_id' },
    ]);
  });

  it('checks the currency code form and refuses codes outside its table', () => {
    const lower = raw(studioScenario());
    lower['currency'] = 'eur';
    expect(onlyError(lower)).toMatchObject({ path: '/currency', code: 'invalid_currency' });
    const unknown = raw(studioScenario());
    unknown['currency'] = 'XYZ';
    expect(onlyError(unknown)).toEqual({ path: '/currency', code: 'unsupported_currency', message: 'Currency "XYZ" is not supported' });
  });

  it('accepts months, quarters and kebab ids as periods, and refuses a month 13', () => {
    const content = raw(studioScenario());
    (content.periods[0] as Record<string, unknown>)['periodId'] = 'year-one';
    expect(validateScenario(content).ok).toBe(true);
    (content.periods[0] as Record<string, unknown>)['periodId'] = '2026-13';
    (content.periods[1] as Record<string, unknown>)['periodId'] = '2026-Q5';
    expect(errorsOf(content)).toEqual([
      { path: '/periods/0/periodId', code: 'invalid_period_id' },
      { path: '/periods/1/periodId', code: 'invalid_period_id' },
    ]);
  });

  it('requires both locales of a localized name', () => {
    const content = raw(studioScenario());
    delete (content.participants[1] as { name: Record<string, unknown> }).name['zh-Hans'];
    expect(onlyError(content)).toEqual({
      path: '/participants/1/name/zh-Hans',
      code: 'required',
      message: 'Participant "alice", name needs "zh-Hans"',
    });
  });

  it('bounds the number of periods, participants and tiers', () => {
    const empty = raw(studioScenario());
    empty.periods = [];
    expect(errorsOf(empty)).toEqual([{ path: '/periods', code: 'too_few_items' }]);
    const noTiers = raw(studioScenario());
    noTiers.tiers = [];
    expect(errorsOf(noTiers)).toEqual([{ path: '/tiers', code: 'too_few_items' }]);
    const many = raw(studioScenario());
    many.periods = Array.from({ length: 121 }, (_, i) => ({ periodId: `p-${i}`, revenue: '1.00', costs: '0.00' }));
    expect(errorsOf(many)).toEqual([{ path: '/periods', code: 'too_many_items' }]);
  });

  it('bounds the payments one settlement works out (periods times tier entries), each list within its own bound', () => {
    // 100 participants sharing each of 10 tiers: 1 000 entries, so 12 periods are 12 000 payments and 13 are 13 000.
    const sized = (periodCount: number) => {
      const content = raw(studioScenario());
      content.participants = Array.from({ length: 100 }, (_, i) => ({
        participantId: `p-${i}`,
        name: { en: `P ${i}`, 'zh-Hans': `参与方${i}` },
        legalEntityId: `LEI-${i}`,
      }));
      content.tiers = Array.from({ length: 10 }, (_, t) => ({
        tierId: `tier-${t}`,
        kind: 'percentage',
        label: { en: `Tier ${t}`, 'zh-Hans': `层${t}` },
        shares: Array.from({ length: 100 }, (_, i) => ({ participantId: `p-${i}`, basisPoints: 100 })),
        ...(t < 9 ? { capAmount: '10.00' } : {}),
      }));
      content.periods = Array.from({ length: periodCount }, (_, i) => ({ periodId: `p-${i}`, revenue: '1000.00', costs: '0.00' }));
      return content;
    };
    expect(MAX_SETTLEMENT_PAYMENTS).toBe(12_000);
    expect(validateScenario(sized(12)).ok).toBe(true);
    expect(onlyError(sized(13))).toEqual({
      path: '',
      code: 'too_many_items',
      message: 'A scenario settles at most 12000 payments (periods times tier entries), found 13000',
    });
    expect(onlyError(sized(120)).message).toMatch(/found 120000$/);
  });

  it('refuses a zero cap and an unknown tier kind', () => {
    const content = raw(studioScenario());
    (content.tiers[1] as Record<string, unknown>)['capAmount'] = '0.00';
    (content.tiers[0] as Record<string, unknown>)['kind'] = 'bonus';
    expect(errorsOf(content)).toEqual([
      { path: '/tiers/0/kind', code: 'invalid_tier_kind' },
      { path: '/tiers/1/capAmount', code: 'cap_not_positive' },
    ]);
  });

  it('reports missing fields and wrong types where they are', () => {
    expect(errorsOf('a scenario')).toEqual([{ path: '', code: 'invalid_type' }]);
    expect(errorsOf(undefined)).toEqual([{ path: '', code: 'invalid_type' }]);
    expect(errorsOf({ currency: 'EUR', periods: {} })).toEqual([
      { path: '/participants', code: 'required' },
      { path: '/tiers', code: 'required' },
      { path: '/periods', code: 'invalid_type' },
    ]);
    const content = raw(studioScenario());
    delete (content.participants[2] as Record<string, unknown>)['legalEntityId'];
    (content.participants[0] as Record<string, unknown>)['participantId'] = 'Platform';
    expect(errorsOf(content)).toEqual([
      { path: '/participants/0/participantId', code: 'invalid_id' },
      { path: '/participants/2/legalEntityId', code: 'required' },
      { path: '/tiers/0/allocations/0/participantId', code: 'unknown_participant' },
    ]);
  });
});
