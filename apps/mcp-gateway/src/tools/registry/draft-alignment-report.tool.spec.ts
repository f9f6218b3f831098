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
const review = {
  en: 'Role assignments must be reviewed at least quarterly, and access that is no longer needed must be removed within 5 working days of the review.',
  'zh-Hans': '角色分配必须至少每季度审查一次，不再需要的访问权限必须在审查后5个工作日内撤销。',
};
const approval = {
  en: 'Every payment instruction must be approved by a person before it is released.',
  'zh-Hans': '每笔付款指令在放行前都必须由人员审批。',
};

type Finding = Partial<Omit<ClauseFindingDto, 'evidence'>> & { text: ClauseFindingDto['text']; evidence?: string[] };
type Report = {
  standards: { clauses: { clauseId: string; status: string; basis: string }[] }[];
  counts: { addressed: number; at_risk: number; not_addressed: number };
};

/** The report of a practice, the registry answering one standard holding the clauses found as given; and what it was asked. */
async function reportOf(practice: string, findings: Finding[], args: Record<string, unknown> = {}) {
  const clauses: ClauseFindingDto[] = findings.map((finding, index) => ({
    clauseId: String(index + 1),
    score: 1,
    stated: [],
    contradicted: [],
    departures: [],
    ...finding,
    evidence: (finding.evidence ?? []).map((sentence) => ({ sentence, words: [], terms: [] })),
  }));
  const asked: unknown[] = [];
  const registry = {
    search: async (query: unknown) => {
      asked.push(query);
      return {
        ok: true,
        body: {
          hits: [
            {
              id: 'XYZ-1',
              score: 1,
              matchedWords: [],
              standard: { sectionId: 'XYZ-1', version: '1.0', citation: 'XYZ-1@1.0', title: costKey, terms: [], clauses },
            },
          ],
        },
      };
    },
  };
  const answer = await draftAlignmentReport.invoke({ practice, ...args }, { registry } as unknown as ToolCollaborators);
  if (answer.kind !== 'done') throw new Error(answer.kind);
  return { report: answer.output as Report, asked };
}

/** The status of the one clause found with the given evidence sentences. */
async function statusOf(practice: string, text: typeof costKey, evidence: string[]): Promise<string> {
  return (await reportOf(practice, [{ text, evidence }])).report.standards[0]!.clauses[0]!.status;
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

describe('draft_alignment_report calling a clause addressed only on what the sentences support', () => {
  const statement = (sentence: string, phrase: string) => ({ sentence, phrase });

  it('calls a clause at_risk when the practice states it and also states its opposite', async () => {
    const { report } = await reportOf('Payments are approved by a person. Urgent payments go out without approval.', [
      {
        text: approval,
        stated: [statement('Payments are approved by a person.', 'approved by a person')],
        contradicted: [statement('Urgent payments go out without approval.', 'without approval')],
      },
    ]);
    expect(report.standards[0]!.clauses[0]).toMatchObject({ status: 'at_risk', basis: expect.stringContaining('without approval') });
  });

  it('calls a clause at_risk when a sentence about it says it is not done, even beside a statement of it', async () => {
    const { report } = await reportOf('Payments are approved by a person. Sometimes we release them anyway.', [
      {
        text: approval,
        stated: [statement('Payments are approved by a person.', 'approved by a person')],
        departures: [{ sentence: 'Sometimes we release them anyway.', cue: 'anyway' }],
      },
    ]);
    expect(report.standards[0]!.clauses[0]).toMatchObject({ status: 'at_risk', basis: expect.stringContaining('anyway') });
  });

  it('calls a clause at_risk when a sentence about it states a figure outside its bound', async () => {
    const sentence = 'Access is removed within a week or two of the review.';
    const { report } = await reportOf(sentence, [{ text: review, evidence: [sentence] }]);
    expect(report.standards[0]!.clauses[0]).toMatchObject({ status: 'at_risk', basis: expect.stringContaining('a week or two') });
  });

  it("calls a statement without the clause's figure not_addressed, and with it addressed", async () => {
    const without = 'Access no longer needed is removed after the review.';
    const withFigure = 'Access no longer needed is removed within five working days of the review.';
    const { report: vague } = await reportOf(without, [{ text: review, evidence: [without], stated: [statement(without, 'removed')] }]);
    expect(vague.standards[0]!.clauses[0]).toMatchObject({ status: 'not_addressed', basis: expect.stringContaining('5 working days') });
    const { report: stated } = await reportOf(withFigure, [
      { text: review, evidence: [withFigure], stated: [statement(withFigure, 'removed')] },
    ]);
    expect(stated.standards[0]!.clauses[0]!.status).toBe('addressed');
  });

  it('counts each status once per clause', async () => {
    const { report } = await reportOf('Payments are approved by a person. Urgent payments go out without approval.', [
      { text: approval, stated: [statement('Payments are approved by a person.', 'approved by a person')] },
      { text: approval, contradicted: [statement('Urgent payments go out without approval.', 'without approval')] },
      { text: costKey },
      { text: costKey },
    ]);
    expect(report.standards[0]!.clauses.map((clause) => clause.status)).toEqual(['addressed', 'at_risk', 'not_addressed', 'not_addressed']);
    expect(report.counts).toEqual({ addressed: 1, at_risk: 1, not_addressed: 2 });
  });

  it('asks the registry for as many standards as the agent asked, five unless it says', async () => {
    expect((await reportOf('  Payments are approved.  ', [])).asked).toEqual([{ q: 'Payments are approved.', in: 'standards', limit: 5 }]);
    expect((await reportOf('Payments are approved.', [], { maxStandards: 2 })).asked).toEqual([
      { q: 'Payments are approved.', in: 'standards', limit: 2 },
    ]);
  });
});
