import type { StandardBlockDto } from '@stdreg/contracts';
import { z } from 'zod';
import { keywords, sharedKeywords } from '../text-match';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized, text } from '../shared-schemas';

const output = z.object({
  practice: z.string(),
  standards: z.array(
    z.object({
      citation: z.string(),
      title: localized,
      score: z.number(),
      matchedKeywords: z.array(z.string()),
      coveredClauses: z.array(z.string()),
      gaps: z.array(z.object({ clauseId: z.string(), requirement: localized })),
    }),
  ),
});

export const draftAlignmentReport = defineTool({
  name: 'draft_alignment_report',
  title: 'Draft an alignment report',
  description: 'Map a described practice to the current standards it must meet; clauses it does not address are gaps.',
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
    const summaries = await registry.all('standards');
    if (!summaries.ok) return failure(summaries.message);
    const blocks: StandardBlockDto[] = [];
    for (const summary of summaries.body) {
      const block = await registry.read<StandardBlockDto>(`/standards/${summary.sectionId}`);
      if (!block.ok) return failure(block.message);
      blocks.push(block.body);
    }
    const wanted = keywords(practice);
    const scored = blocks.map((block) => {
      const headline = keywords(
        `${block.title.en} ${block.title['zh-Hans']} ${block.summary.en} ${block.summary['zh-Hans']} ${block.tags.join(' ')}`,
      );
      const clauses = block.clauses.map((clause) => ({
        clause,
        shared: sharedKeywords(wanted, keywords(`${clause.text.en} ${clause.text['zh-Hans']}`)),
      }));
      const matched = [...new Set([...sharedKeywords(wanted, headline), ...clauses.flatMap((c) => c.shared)])].sort();
      const score =
        Math.round((sharedKeywords(wanted, headline).length * 2 + clauses.reduce((sum, c) => sum + c.shared.length, 0)) * 100) / 100;
      return {
        citation: block.citation,
        title: block.title,
        score,
        matchedKeywords: matched,
        coveredClauses: clauses.filter((c) => c.shared.length > 0).map((c) => c.clause.clauseId),
        gaps: clauses.filter((c) => c.shared.length === 0).map((c) => ({ clauseId: c.clause.clauseId, requirement: c.clause.text })),
      };
    });
    const standards = scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.citation.localeCompare(b.citation))
      .slice(0, maxStandards);
    return { ok: true, output: { practice, standards } };
  },
  render: (o) =>
    o.standards.length === 0
      ? 'No standard matches the practice as described; describe it with the registry terms (resolve_term helps).'
      : o.standards
          .map(
            (s) =>
              `${s.citation} ${s.title.en}: covers §${s.coveredClauses.join(', §') || '-'}; gaps §${s.gaps.map((g) => g.clauseId).join(', §') || '-'}`,
          )
          .join('\n'),
});
