// The words a person confirms when activating a split project.
import type { Localized } from '@stdreg/contracts';
import { basisPointsAsPercent, type ScenarioContent, type Tier } from '@stdreg/split-engine';

export interface ActivationFacts {
  projectName: string;
  scenarioName: string;
  revision: number;
  rulesDigest: string;
  effectiveFrom: Date;
  content: ScenarioContent;
}

/** What would be activated, in both locales, with every tier spelled out so the confirmation is informed. */
export function activationSummary(facts: ActivationFacts): Localized {
  const names = new Map(facts.content.participants.map((p) => [p.participantId, p.name]));
  const nameOf = (id: string, locale: keyof Localized) => names.get(id)?.[locale] ?? id;
  const at = facts.effectiveFrom.toISOString();
  const currency = facts.content.currency;
  const tier = (t: Tier, locale: keyof Localized): string => {
    const zh = locale === 'zh-Hans';
    if (t.kind === 'fixed') {
      const parts = t.allocations.map((a) => `${nameOf(a.participantId, locale)} ${a.amount} ${currency}`);
      return zh ? `${t.label[locale]}（固定）：${parts.join('，')}` : `${t.label[locale]} (fixed): ${parts.join(', ')}`;
    }
    const parts = t.shares.map((s) => `${nameOf(s.participantId, locale)} ${basisPointsAsPercent(s.basisPoints)}%`);
    const cap = t.capAmount === undefined ? '' : zh ? `，上限 ${t.capAmount} ${currency}` : `, cap ${t.capAmount} ${currency}`;
    return zh ? `${t.label[locale]}（比例${cap}）：${parts.join('，')}` : `${t.label[locale]} (percentage${cap}): ${parts.join(', ')}`;
  };
  return {
    en:
      `Activate Rule Version 1 of "${facts.projectName}" from scenario "${facts.scenarioName}" revision ${facts.revision} ` +
      `(rules ${facts.rulesDigest}), effective ${at}. Tiers in order: ${facts.content.tiers.map((t) => tier(t, 'en')).join('; ')}.`,
    'zh-Hans':
      `激活「${facts.projectName}」的第 1 版规则：经营方案「${facts.scenarioName}」第 ${facts.revision} 次修订` +
      `（规则摘要 ${facts.rulesDigest}），生效时间 ${at}。各层依次为：${facts.content.tiers.map((t) => tier(t, 'zh-Hans')).join('；')}。`,
  };
}
