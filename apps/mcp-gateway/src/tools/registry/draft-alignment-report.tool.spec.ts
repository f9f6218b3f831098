import type { ClauseFindingDto } from '@stdreg/contracts';
import type { ToolCollaborators } from '../tool-definition';
import { draftAlignmentReport } from './draft-alignment-report.tool';

const forwardOnly = {
  en: 'Rule changes must never apply retroactively; adjustments relating to past periods must be made through settlement corrections.',
  'zh-Hans': '规则变更绝不能追溯适用；涉及过往周期的调整必须通过结算更正进行。',
};
const costKey = {
  en: 'A cost shared between projects must be apportioned by a stated key whose shares total exactly 10000 basis points.',
  'zh-Hans': '在多个项目之间分摊的成本必须按明确的分摊比例分配，各份额合计必须恰好为10000基点。',
};

/** The report of a practice, the registry answering one standard holding the clause with the given evidence sentences. */
async function statusOf(practice: string, text: typeof costKey, evidence: string[]): Promise<unknown> {
  const clause: ClauseFindingDto = {
    clauseId: '1',
    text,
    score: 1,
    evidence: evidence.map((sentence) => ({ sentence, words: [], terms: [] })),
    stated: [],
    contradicted: [],
    departures: [],
  };
  const registry = {
    search: async () => ({
      ok: true,
      body: {
        hits: [
          {
            id: 'XYZ-1',
            score: 1,
            matchedWords: [],
            standard: { sectionId: 'XYZ-1', version: '1.0', citation: 'XYZ-1@1.0', title: text, terms: [], clauses: [clause] },
          },
        ],
      },
    }),
  };
  const answer = await draftAlignmentReport.invoke({ practice }, { registry } as unknown as ToolCollaborators);
  if (answer.kind !== 'done') throw new Error(answer.kind);
  return (answer.output as { standards: { clauses: { status: string }[] }[] }).standards[0]!.clauses[0]!.status;
}

describe('draft_alignment_report reading the kind of requirement a clause states', () => {
  it('reads a start before the signing in any sentence of the practice, even one the search did not give the clause', async () => {
    const practice = 'The partners like the new split. It was signed on June 18, and we applied it from June 1.';
    expect(await statusOf(practice, forwardOnly, [])).toBe('at_risk');
  });

  it('reads shares that do not make the whole only in a sentence about the clause', async () => {
    const practice = 'The office rent is split 40%, 35% and 30% between the three studios.';
    expect(await statusOf(practice, costKey, [])).toBe('not_addressed');
    expect(await statusOf(practice, costKey, [practice])).toBe('at_risk');
  });
});
