import fc from 'fast-check';
import { kindDeparture, PAIRED_FIGURE_CHECKS, piecesBefore } from './clause-kinds';

const clause = (en: string, zh: string) => ({ en, 'zh-Hans': zh });
const costKey = clause(
  'A cost shared between projects must be apportioned by a stated key whose shares total exactly 10000 basis points.',
  '在多个项目之间分摊的成本必须按明确的分摊比例分配，各份额合计必须恰好为10000基点。',
);
const wholeBasisPoints = clause(
  'Each percentage tier must be an integer number of basis points between 1 and 10000; fractional basis points are not allowed.',
  '每个百分比层级必须是1至10000之间的整数基点；不允许使用小数基点。',
);
const oneCurrency = clause(
  'Each project must have exactly one settlement currency, and amounts in different currencies must never be added together without conversion.',
  '每个项目都必须有且只有一个结算币种，不同币种的金额未经换算绝不能相加。',
);
const convertFirst = clause(
  'Conversion must take place before allocation, and the converted amount must be rounded to a whole minor unit.',
  '换算必须在分配之前进行，换算后的金额必须舍入至整数最小货币单位。',
);
const closeFirst = clause(
  'A period must be closed before a settlement run for it may be posted.',
  '结算周期必须关账后方可过账该周期的结算批次。',
);
const forwardOnly = clause(
  'Every rule version must take effect at the start of a settlement period that has not yet begun at the time of its approval.',
  '每个规则版本都必须在其获批时尚未开始的某个结算周期起始时生效。',
);
const noOverlap = clause('Settlement periods must be contiguous and must not overlap.', '结算周期必须连续且不得重叠。');

describe('a sentence read against the kind of requirement a clause states', () => {
  it('finds shares that do not make the whole, listed or each of a count', () => {
    expect(kindDeparture(costKey, 'The office rent is split 40%, 35% and 30% between the three studios.')?.stated).toBe(
      '40% + 35% + 30% = 105 %',
    );
    expect(kindDeparture(costKey, '两个项目各承担45%的服务器费用。')?.stated).toBe('2 × 45% = 90 %');
    expect(kindDeparture(costKey, 'The office rent is split 40%, 35% and 25% between the three studios.')).toBeUndefined();
    // A single figure is no list of shares.
    expect(kindDeparture(costKey, 'The studio pays 40% of the rent.')).toBeUndefined();
  });

  it('finds a share holding a fraction of a basis point where whole ones are required', () => {
    expect(kindDeparture(wholeBasisPoints, 'The referral tier is stored as 12.345% of net revenue.')?.stated).toBe(
      '12.345% (1234.5 basis points)',
    );
    expect(kindDeparture(wholeBasisPoints, '推荐层级按12.34%计。')).toBeUndefined();
  });

  it('finds two currencies set side by side without a conversion', () => {
    expect(
      kindDeparture(oneCurrency, 'The London sales come in pounds sterling and the Zurich ones in Swiss francs, and we pool them.')?.stated,
    ).toBe('pounds sterling and Swiss francs without conversion');
    expect(kindDeparture(oneCurrency, '香港的收入是港币，北京的是人民币，月底合成一笔再分。')?.stated).toBe(
      '人民币 and 港币 without conversion',
    );
    expect(kindDeparture(oneCurrency, 'The pounds are converted to euros at the day’s reference rate before pooling.')).toBeUndefined();
    expect(kindDeparture(oneCurrency, '港币和人民币都先按当日汇率折算。')).toBeUndefined();
  });

  it('finds the order a clause sets said the other way round', () => {
    expect(
      kindDeparture(convertFirst, 'The shares are worked out in dollars, and the conversion only happens after allocation.')?.stated,
    ).toBe('allocation done first');
    expect(kindDeparture(convertFirst, '每月先把分配做完，然后换算成结算币种。')?.stated).toBe('分配 done first');
    expect(kindDeparture(convertFirst, '每月先换算成结算币种，然后再做分配。')).toBeUndefined();
    expect(kindDeparture(closeFirst, '这个月尚未关账，批次已经过账了。')?.stated).toBe('关账 done later');
    expect(kindDeparture(closeFirst, 'We post the run the morning after the period is closed.')).toBeUndefined();
    expect(kindDeparture(convertFirst, 'Conversion happens before allocation, at the day’s rate.')).toBeUndefined();
  });

  it('finds a start before the signing where a change may not reach back', () => {
    expect(kindDeparture(forwardOnly, 'The new split was signed on June 18, and we applied it from June 1.')?.stated).toBe(
      'a start on June 1 before the signing on June 18',
    );
    expect(kindDeparture(forwardOnly, '新规则5月25日审批通过，从5月1日开始执行。')?.stated).toBe(
      'a start on 5月1日 before the signing on 5月25日',
    );
    expect(kindDeparture(forwardOnly, 'The new split was signed on June 18, and it applies from July 1.')).toBeUndefined();
  });

  it('finds day ranges that overlap where periods may not', () => {
    expect(kindDeparture(noOverlap, 'One batch covers the 1st to the 20th, the next the 16th to the end of the month.')?.stated).toBe(
      'the 1st to the 20th and the 16th to the end of the month overlapping',
    );
    expect(kindDeparture(noOverlap, '每月1日到15日结一次，16日到月底再结一次。')).toBeUndefined();
  });

  it('reads nothing in a sentence that negates or sets a case, and only the paired figures where asked', () => {
    expect(kindDeparture(costKey, 'We never split rent 40%, 35% and 30%.')).toBeUndefined();
    expect(kindDeparture(oneCurrency, 'If a shop pays in yen and another in euros, the run is refused.')).toBeUndefined();
    expect(
      kindDeparture(costKey, 'The office rent is split 40%, 35% and 30% between the three studios.', PAIRED_FIGURE_CHECKS),
    ).toBeUndefined();
    expect(
      kindDeparture(forwardOnly, 'The new split was signed on June 18, and we applied it from June 1.', PAIRED_FIGURE_CHECKS),
    ).toBeDefined();
  });
});

describe('a period read whole, a duty read as recurring', () => {
  const onePerPeriod = clause('Exactly one rule version must govern each settlement period.', '每个结算周期必须且只能由一个规则版本管辖。');
  const quarterly = clause('Role assignments must be reviewed at least quarterly.', '角色分配必须至少每季度审查一次。');
  const yearly = clause(
    'The compliance officer must review the records at least once a calendar year.',
    '合规官应至少每个日历年审查一次治理记录。',
  );

  it('finds a period cut in parts where one rule governs it whole', () => {
    expect(kindDeparture(onePerPeriod, 'In May the March terms ran until mid-month and the revised ones after that.')?.stated).toBe(
      '"mid-month"',
    );
    expect(kindDeparture(onePerPeriod, '五月份上半月用旧规则，之后换成新规则。')?.stated).toBe('"上半月"');
    expect(kindDeparture(onePerPeriod, '合作方至少提前两周收到通知。')).toBeUndefined();
    expect(kindDeparture(yearly, 'The old rule covers the first two weeks.')).toBeUndefined();
  });

  it('finds a recurring duty last done longer ago than it recurs, said with or without a negation', () => {
    expect(kindDeparture(quarterly, 'The last look at who holds which role was three quarters ago.')?.stated).toBe(
      'last done "three quarters ago"',
    );
    expect(kindDeparture(quarterly, 'No one has checked the roles since the audit two years ago.')?.stated).toBe(
      'last done "two years ago"',
    );
    expect(kindDeparture(yearly, '上次审查治理记录是大前年。')?.stated).toBe('last done "大前年"');
    expect(kindDeparture(yearly, 'We reviewed the records two months ago.')).toBeUndefined();
    expect(kindDeparture(quarterly, 'We reviewed the roles a month ago.')).toBeUndefined();
  });
});

describe('the words before an order word, read from the word back', () => {
  it('are the last pieces of the text before it split at whitespace, as the whole split gave them', () => {
    const text = fc
      .array(fc.constantFrom('a', 'first', 'then', ' ', '  ', '\n', '\t', '审批', '\u00a0', '—'), { maxLength: 40 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 1, max: 6 }), (written, at, count) => {
        const end = at % (written.length + 1);
        expect(piecesBefore(written, end, count)).toEqual(written.slice(0, end).split(/\s+/).slice(-count));
      }),
      { numRuns: 2000 },
    );
  });
});
