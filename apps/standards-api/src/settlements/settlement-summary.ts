// The words a person confirms when posting a settlement run.
import type { Localized } from '@stdreg/contracts';

export interface PostingFacts {
  projectName: string;
  periodId: string;
  periodEnd: string;
  currency: string;
  gross: string;
  costs: string;
  distributable: string;
  ruleVersion: number;
  rulesDigest: string;
  allocations: { name: Localized; legalEntityId: string; amount: string }[];
  correctsRunId: string | null;
  reversedEntries: number;
}

/** What would be posted, in both locales, with every participant's allocation spelled out. */
export function postingSummary(facts: PostingFacts): Localized {
  const c = facts.currency;
  const allocations = (locale: keyof Localized, separator: string) =>
    facts.allocations.map((a) => `${a.name[locale]} (${a.legalEntityId}) ${a.amount} ${c}`).join(separator);
  const correction =
    facts.correctsRunId === null
      ? { en: '', zh: '' }
      : {
          en: ` This corrects run ${facts.correctsRunId}: its ${facts.reversedEntries} ledger entries are reversed first, entry by entry.`,
          zh: `本次为对结算记录 ${facts.correctsRunId} 的更正：先逐笔冲销其 ${facts.reversedEntries} 笔权益账目。`,
        };
  return {
    en:
      `Post the settlement of period ${facts.periodId} (ended ${facts.periodEnd}) of "${facts.projectName}" under Rule Version ${facts.ruleVersion} ` +
      `(rules ${facts.rulesDigest}): gross ${facts.gross} ${c}, costs ${facts.costs} ${c}, distributable ${facts.distributable} ${c}. ` +
      `Allocations, each appended to the legal entity's equity ledger: ${allocations('en', '; ')}.${correction.en}`,
    'zh-Hans':
      `过账「${facts.projectName}」期间 ${facts.periodId}（截至 ${facts.periodEnd}）的结算，适用第 ${facts.ruleVersion} 版规则` +
      `（规则摘要 ${facts.rulesDigest}）：总收入 ${facts.gross} ${c}，成本 ${facts.costs} ${c}，可分配金额 ${facts.distributable} ${c}。` +
      `各项分配（逐笔记入对应法律实体的权益账）：${allocations('zh-Hans', '；')}。${correction.zh}`,
  };
}
