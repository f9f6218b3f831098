// One-line sentences, in both locales, for each kind of rule change.
import type { Localized } from '@stdreg/contracts';
import { basisPointsAsPercent } from '../money/basis-points';
import type { TierKind } from '../scenario/scenario-content';
import type { MoneyValue, ParticipantDetail, RuleChangeFacts } from './rule-change';

const KIND_NAMES: Record<TierKind, Localized> = {
  fixed: { en: 'fixed', 'zh-Hans': '固定' },
  percentage: { en: 'percentage', 'zh-Hans': '百分比' },
};

const DETAIL_NAMES: Record<ParticipantDetail, Localized> = {
  name: { en: 'name', 'zh-Hans': '名称' },
  legalEntityId: { en: 'legal entity', 'zh-Hans': '法律实体' },
  role: { en: 'role', 'zh-Hans': '角色' },
};

export function describeRuleChange(change: RuleChangeFacts): Localized {
  switch (change.kind) {
    case 'currency_changed':
      return { en: `Currency changes from ${change.before} to ${change.after}`, 'zh-Hans': `币种由 ${change.before} 变为 ${change.after}` };
    case 'participant_added':
      return { en: `Participant ${change.participantId} is added`, 'zh-Hans': `新增参与方 ${change.participantId}` };
    case 'participant_removed':
      return { en: `Participant ${change.participantId} is removed`, 'zh-Hans': `移除参与方 ${change.participantId}` };
    case 'participant_details_changed':
      return {
        en: `Participant ${change.participantId} changes ${change.details.map((d) => DETAIL_NAMES[d].en).join(' and ')}`,
        'zh-Hans': `参与方 ${change.participantId} 的${change.details.map((d) => DETAIL_NAMES[d]['zh-Hans']).join('、')}有变更`,
      };
    case 'tier_added':
      return {
        en: `Tier ${change.tierId} (${KIND_NAMES[change.tierKind].en}) is added at position ${change.index + 1}`,
        'zh-Hans': `在第 ${change.index + 1} 位新增层级 ${change.tierId}（${KIND_NAMES[change.tierKind]['zh-Hans']}）`,
      };
    case 'tier_removed':
      return {
        en: `Tier ${change.tierId} (${KIND_NAMES[change.tierKind].en}) is removed from position ${change.index + 1}`,
        'zh-Hans': `移除第 ${change.index + 1} 位的层级 ${change.tierId}（${KIND_NAMES[change.tierKind]['zh-Hans']}）`,
      };
    case 'tier_moved':
      return {
        en: `Tier ${change.tierId} moves from position ${change.fromIndex + 1} to position ${change.toIndex + 1}`,
        'zh-Hans': `层级 ${change.tierId} 由第 ${change.fromIndex + 1} 位移至第 ${change.toIndex + 1} 位`,
      };
    case 'tier_kind_changed':
      return {
        en: `Tier ${change.tierId} changes from ${KIND_NAMES[change.before].en} to ${KIND_NAMES[change.after].en}`,
        'zh-Hans': `层级 ${change.tierId} 由${KIND_NAMES[change.before]['zh-Hans']}层级改为${KIND_NAMES[change.after]['zh-Hans']}层级`,
      };
    case 'tier_label_changed':
      return {
        en: `Tier ${change.tierId} is renamed from "${change.before.en}" to "${change.after.en}"`,
        'zh-Hans': `层级 ${change.tierId} 的名称由“${change.before['zh-Hans']}”改为“${change.after['zh-Hans']}”`,
      };
    case 'share_changed':
      return describeShareChange(change.tierId, change.participantId, change.before, change.after);
    case 'cap_changed':
      return describeCapChange(change.tierId, change.before, change.after);
    case 'fixed_amount_changed':
      return describeFixedAmountChange(change.tierId, change.participantId, change.before, change.after);
    case 'allocation_order_changed':
      return {
        en: `Tier ${change.tierId}: payment order changes from ${change.before.join(', ')} to ${change.after.join(', ')}`,
        'zh-Hans': `层级 ${change.tierId}：支付顺序由 ${change.before.join('、')} 变为 ${change.after.join('、')}`,
      };
  }
}

function describeShareChange(tierId: string, participantId: string, before: number | null, after: number | null): Localized {
  const share = (basisPoints: number): Localized => ({
    en: `${basisPoints} basis points (${basisPointsAsPercent(basisPoints)}%)`,
    'zh-Hans': `${basisPoints} 个基点（${basisPointsAsPercent(basisPoints)}%）`,
  });
  if (before === null && after !== null) {
    return {
      en: `Tier ${tierId}: ${participantId} now gets ${share(after).en}`,
      'zh-Hans': `层级 ${tierId}：${participantId} 新获得 ${share(after)['zh-Hans']}的份额`,
    };
  }
  if (before !== null && after === null) {
    return {
      en: `Tier ${tierId}: ${participantId}'s share of ${share(before).en} is removed`,
      'zh-Hans': `层级 ${tierId}：移除 ${participantId} 的 ${share(before)['zh-Hans']}份额`,
    };
  }
  return {
    en: `Tier ${tierId}: ${participantId}'s share changes from ${share(before ?? 0).en} to ${share(after ?? 0).en}`,
    'zh-Hans': `层级 ${tierId}：${participantId} 的份额由 ${share(before ?? 0)['zh-Hans']}变为 ${share(after ?? 0)['zh-Hans']}`,
  };
}

function describeCapChange(tierId: string, before: MoneyValue | null, after: MoneyValue | null): Localized {
  if (before === null && after !== null) {
    return { en: `Tier ${tierId}: a cap of ${money(after)} is set`, 'zh-Hans': `层级 ${tierId}：设置上限 ${money(after)}` };
  }
  if (before !== null && after === null) {
    return { en: `Tier ${tierId}: the cap of ${money(before)} is removed`, 'zh-Hans': `层级 ${tierId}：取消 ${money(before)} 的上限` };
  }
  return {
    en: `Tier ${tierId}: the cap changes from ${money(before)} to ${money(after)}`,
    'zh-Hans': `层级 ${tierId}：上限由 ${money(before)} 变为 ${money(after)}`,
  };
}

function describeFixedAmountChange(tierId: string, participantId: string, before: MoneyValue | null, after: MoneyValue | null): Localized {
  if (before === null && after !== null) {
    return {
      en: `Tier ${tierId}: ${participantId} now receives a fixed ${money(after)}`,
      'zh-Hans': `层级 ${tierId}：新增向 ${participantId} 支付固定金额 ${money(after)}`,
    };
  }
  if (before !== null && after === null) {
    return {
      en: `Tier ${tierId}: the fixed ${money(before)} to ${participantId} is removed`,
      'zh-Hans': `层级 ${tierId}：取消向 ${participantId} 支付的固定金额 ${money(before)}`,
    };
  }
  return {
    en: `Tier ${tierId}: the fixed amount to ${participantId} changes from ${money(before)} to ${money(after)}`,
    'zh-Hans': `层级 ${tierId}：支付给 ${participantId} 的固定金额由 ${money(before)} 变为 ${money(after)}`,
  };
}

function money(value: MoneyValue | null): string {
  return value === null ? '-' : `${value.amount} ${value.currency}`;
}
