import { sentencesOf, type ClauseFindingDto } from '@stdreg/contracts';
import { z } from 'zod';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized, text } from '../shared-schemas';
import { figureDeparture, figuresNotStated } from './clause-figures';
import { PAIRED_FIGURE_CHECKS, kindDeparture } from './clause-kinds';

const CLAUSE_STATUSES = ['addressed', 'at_risk', 'not_addressed'] as const;
type ClauseStatus = (typeof CLAUSE_STATUSES)[number];

const DRAFT_NOTICE =
  'Draft for a person to review: statuses come from matching the practice as written against the standards, not from an audit. addressed: the practice states what the clause requires; at_risk: it states the opposite; not_addressed: it says neither. Check every clause and its evidence before relying on it.';

const evidence = z.object({
  sentence: z.string().describe('A sentence of the practice that bears on the clause'),
  words: z.array(z.string()).describe('Search words it shares with the clause'),
  terms: z.array(z.string()).describe('Registry terms (termIds) it names'),
});

const output = z.object({
  practice: z.string(),
  draft: z.literal(true),
  notice: z.string(),
  standards: z.array(
    z.object({
      citation: z.string(),
      title: localized,
      score: z.number(),
      terms: z.array(z.string()).describe('Registry terms the practice names that this standard governs'),
      clauses: z.array(
        z.object({
          clauseId: z.string(),
          citation: z.string(),
          requirement: localized,
          status: z
            .enum(CLAUSE_STATUSES)
            .describe(
              'addressed: the practice states what the clause requires; at_risk: it states the opposite (e.g. no human approval, one person preparing and approving, no named supervisor, automatic payment); not_addressed: neither',
            ),
          basis: z.string().describe('Why the status: the phrase of the clause the practice matched, or that it matched none'),
          evidence: z.array(evidence),
        }),
      ),
    }),
  ),
  counts: z.object({ addressed: z.int(), at_risk: z.int(), not_addressed: z.int() }),
});

/**
 * Only what the sentences support: a contradiction outweighs a statement, and no evidence is no claim. A
 * statement of a clause that sets figures (within 5 working days) counts only when the sentence states them.
 */
function statusOf(clause: ClauseFindingDto, practiceSentences: string[]): { status: ClauseStatus; basis: string } {
  const contradiction = clause.contradicted[0];
  if (contradiction) return { status: 'at_risk', basis: `the practice states the opposite ("${contradiction.phrase}")` };
  const departure = clause.departures[0];
  if (departure) {
    return {
      status: 'at_risk',
      basis: `a sentence of the practice about this clause says it is not done, or done regardless ("${departure.cue}")`,
    };
  }
  for (const { sentence } of clause.evidence) {
    const figure = figureDeparture(clause.text, sentence);
    if (figure) {
      return {
        status: 'at_risk',
        basis: `a sentence of the practice about this clause states ${figure.stated} where the clause sets ${figure.bound}`,
      };
    }
  }
  const kinds = [
    ...clause.evidence.map(({ sentence }) => kindDeparture(clause.text, sentence)),
    ...practiceSentences.map((sentence) => kindDeparture(clause.text, sentence, PAIRED_FIGURE_CHECKS)),
  ];
  for (const kind of kinds) {
    if (kind) {
      return {
        status: 'at_risk',
        basis: `a sentence of the practice about this clause states ${kind.stated} where the clause requires ${kind.required}`,
      };
    }
  }
  const statement = clause.stated[0];
  if (statement) {
    const unstated = figuresNotStated(clause.text, statement.sentence);
    if (unstated.length === 0)
      return { status: 'addressed', basis: `the practice states what the clause requires ("${statement.phrase}")` };
    return {
      status: 'not_addressed',
      basis: `the practice states what the clause requires ("${statement.phrase}") but not its limits (${unstated.join(', ')}): cannot tell`,
    };
  }
  return {
    status: 'not_addressed',
    basis:
      clause.evidence.length > 0
        ? 'the practice touches the clause but states neither what it requires nor the opposite'
        : 'nothing in the practice bears on it',
  };
}

export const draftAlignmentReport = defineTool({
  name: 'draft_alignment_report',
  title: 'Draft an alignment report',
  description:
    'Draft for a person to review: standards a practice bears on, per clause its evidence and a status (addressed, at_risk, not_addressed). Not a compliance claim.',
  input: z
    .object({
      practice: text(4000).describe('What the organization does, in either language'),
      maxStandards: z.int().min(1).max(10).default(5),
    })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ practice, maxStandards }, { registry }) {
    const found = await registry.search({ q: practice, in: 'standards', limit: maxStandards });
    if (!found.ok) return failure(found.message);
    const counts = { addressed: 0, at_risk: 0, not_addressed: 0 };
    const practiceSentences = sentencesOf(practice);
    const standards = found.body.hits.flatMap(({ standard, score }) => {
      if (!standard) return [];
      const clauses = standard.clauses.map((clause) => {
        const { status, basis } = statusOf(clause, practiceSentences);
        counts[status] += 1;
        return {
          clauseId: clause.clauseId,
          citation: `${standard.citation}#${clause.clauseId}`,
          requirement: clause.text,
          status,
          basis,
          evidence: clause.evidence,
        };
      });
      return [{ citation: standard.citation, title: standard.title, score, terms: standard.terms, clauses }];
    });
    return { ok: true, output: { practice, draft: true as const, notice: DRAFT_NOTICE, standards, counts } };
  },
  render: (o) => {
    if (o.standards.length === 0) {
      return `${DRAFT_NOTICE}\nNo standard matches the practice as described; describe it with the registry terms (resolve_term helps).`;
    }
    const lines = o.standards.map((s) => {
      const of = (status: ClauseStatus) =>
        s.clauses
          .filter((c) => c.status === status)
          .map((c) => `§${c.clauseId}`)
          .join(', ') || '-';
      return `${s.citation} ${s.title.en}: at risk ${of('at_risk')}; addressed ${of('addressed')}; not addressed ${of('not_addressed')}`;
    });
    return [DRAFT_NOTICE, ...lines].join('\n');
  },
});
