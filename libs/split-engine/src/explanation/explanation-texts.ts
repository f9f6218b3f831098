// The sentences of a settlement explanation, in English and Simplified Chinese.
import type { Localized } from '@stdreg/contracts';
import { basisPointsAsPercent } from '../money/basis-points';
import type { DistributableFacts, FixedPaymentFacts, PercentageSplitFacts, TotalsFacts } from './explanation-step';

export function distributableText(facts: DistributableFacts, lossMade: boolean): Localized {
  const { periodId, currency } = facts;
  const [revenue, costs, distributable] = [facts.revenue, facts.costs, facts.distributable].map((amount) => `${amount} ${currency}`);
  if (lossMade) {
    return {
      en: `Period ${periodId}: costs ${costs} exceed revenue ${revenue}, so nothing is distributed (a loss is not carried forward)`,
      'zh-Hans': `期间 ${periodId}：成本 ${costs} 超过收入 ${revenue}，本期无可分配金额（亏损不结转）`,
    };
  }
  return {
    en: `Period ${periodId}: revenue ${revenue} less costs ${costs} leaves ${distributable} to distribute`,
    'zh-Hans': `期间 ${periodId}：收入 ${revenue} 减去成本 ${costs}，可分配金额为 ${distributable}`,
  };
}

export function fixedPaymentText(facts: FixedPaymentFacts, fullyPaid: boolean, nothingPaid: boolean): Localized {
  const { tierId, participantId, currency } = facts;
  const [due, paid] = [facts.due, facts.paid].map((amount) => `${amount} ${currency}`);
  if (fullyPaid) {
    return {
      en: `Tier ${tierId} (fixed) pays ${paid} to ${participantId}`,
      'zh-Hans': `层级 ${tierId}（固定）向 ${participantId} 支付 ${paid}`,
    };
  }
  if (nothingPaid) {
    return {
      en: `Tier ${tierId} (fixed) pays nothing to ${participantId} of ${due} due; nothing remained`,
      'zh-Hans': `层级 ${tierId}（固定）未向 ${participantId} 支付任何金额（应付 ${due}，已无剩余）`,
    };
  }
  return {
    en: `Tier ${tierId} (fixed) pays ${paid} to ${participantId} of ${due} due; only ${paid} remained`,
    'zh-Hans': `层级 ${tierId}（固定）向 ${participantId} 支付 ${paid}（应付 ${due}，仅剩 ${paid}）`,
  };
}

export function percentageSplitText(facts: PercentageSplitFacts, nothingToSplit: boolean, capBinds: boolean): Localized {
  const { tierId, currency } = facts;
  const money = (amount: string): string => `${amount} ${currency}`;
  const heading: Localized =
    facts.capAmount === null
      ? { en: `Tier ${tierId} (percentage)`, 'zh-Hans': `层级 ${tierId}（百分比）` }
      : {
          en: `Tier ${tierId} (percentage, cap ${money(facts.capAmount)})`,
          'zh-Hans': `层级 ${tierId}（百分比，上限 ${money(facts.capAmount)}）`,
        };
  if (nothingToSplit) return { en: `${heading.en}: nothing remains to split`, 'zh-Hans': `${heading['zh-Hans']}：没有剩余金额可分配` };

  const ratio = facts.shares.map((share) => basisPointsAsPercent(share.basisPoints)).join('/');
  const what: Localized = capBinds
    ? {
        en: `${money(facts.split)} of the remaining ${money(facts.available)}`,
        'zh-Hans': `剩余 ${money(facts.available)} 中的 ${money(facts.split)}`,
      }
    : { en: `remaining ${money(facts.split)}`, 'zh-Hans': `剩余 ${money(facts.split)}` };
  const parts = facts.shares.map((share) => `${share.participantId} ${money(share.paid)}`);
  let en = `${heading.en}: ${what.en} split ${ratio} by basis points: ${parts.join(', ')}`;
  let zh = `${heading['zh-Hans']}：${what['zh-Hans']} 按基点 ${ratio} 分配：${parts.join('，')}`;

  const rounded = facts.shares.filter((share) => share.roundingUnits > 0).map((share) => share.participantId);
  if (rounded.length > 0) {
    const units = rounded.length === 1 ? '1 minor unit' : `${rounded.length} minor units`;
    const receivers = rounded.length === 1 ? rounded.join('') : `${rounded.slice(0, -1).join(', ')} and ${rounded.at(-1)}, one each`;
    en += `; ${units} of rounding went to ${receivers} (largest remainder)`;
    zh += `；${rounded.length} 个最小货币单位的舍入差额按最大余数法分给 ${rounded.join('、')}${rounded.length === 1 ? '' : '（每人 1 个）'}`;
  }
  if (capBinds) {
    en += `; ${money(facts.passedOn)} passes to the next tier`;
    zh += `；${money(facts.passedOn)} 转入下一层级`;
  }
  return { en, 'zh-Hans': zh };
}

export function totalsText(facts: TotalsFacts, periodCount: number): Localized {
  const { currency } = facts;
  const parts = facts.participants.map((participant) => `${participant.participantId} ${participant.total} ${currency}`);
  const whole = `${facts.distributable} ${currency}`;
  const heading: Localized =
    facts.periodId === null
      ? { en: `Totals over all ${periodCount} periods`, 'zh-Hans': `全部 ${periodCount} 个期间合计` }
      : { en: `Period ${facts.periodId} totals`, 'zh-Hans': `期间 ${facts.periodId} 合计` };
  return {
    en: `${heading.en}: ${parts.join(', ')}; together ${whole}, exactly the distributable amount`,
    'zh-Hans': `${heading['zh-Hans']}：${parts.join('，')}；共计 ${whole}，与可分配金额完全相等`,
  };
}
