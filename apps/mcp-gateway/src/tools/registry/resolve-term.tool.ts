import { z } from 'zod';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized, text } from '../shared-schemas';

const MATCH_KINDS = ['exact', 'synonym', 'near'] as const;

const output = z.object({
  query: z.string(),
  matches: z.array(
    z.object({
      termId: z.string(),
      match: z.enum(MATCH_KINDS),
      score: z.number(),
      term: localized,
      definition: localized,
      standards: z.array(z.string()),
    }),
  ),
});

export const resolveTerm = defineTool({
  name: 'resolve_term',
  title: 'Resolve a term',
  description:
    'Find controlled terms for a word or phrase in English or Chinese, best first: exact, synonym or designation, or near (search tolerant of typos, prefixes).',
  input: z
    .object({
      text: text(100).describe('A word or phrase in either language'),
      limit: z.int().min(1).max(20).default(5),
    })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ text: query, limit }, { registry }) {
    const found = await registry.search({ q: query, in: 'terms', limit });
    if (!found.ok) return failure(found.message);
    const matches = found.body.hits.flatMap((hit) =>
      hit.term
        ? [
            {
              termId: hit.term.termId,
              match: hit.match ?? 'near',
              score: hit.score,
              term: hit.term.term,
              definition: hit.term.definition,
              standards: hit.term.standards,
            },
          ]
        : [],
    );
    return { ok: true, output: { query, matches } };
  },
  render: ({ query, matches }) =>
    matches.length === 0
      ? `No term matches "${query}".`
      : matches
          .map((m) => `${m.term.en} / ${m.term['zh-Hans']} (${m.termId}, ${m.match}): ${m.definition.en} / ${m.definition['zh-Hans']}`)
          .join('\n'),
});
