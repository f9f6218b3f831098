import { z } from 'zod';
import { normalize } from '../text-match';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized, text } from '../shared-schemas';

const MATCH_KINDS = ['exact', 'synonym', 'near'] as const;

const output = z.object({
  query: z.string(),
  matches: z.array(
    z.object({
      termId: z.string(),
      match: z.enum(MATCH_KINDS),
      term: localized,
      definition: localized,
      standards: z.array(z.string()),
    }),
  ),
});

export const resolveTerm = defineTool({
  name: 'resolve_term',
  title: 'Resolve a term',
  description: 'Find controlled terms by text in English or Chinese: exact, synonym or near matches.',
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
    const terms = await registry.all('terms');
    if (!terms.ok) return failure(terms.message);
    const wanted = normalize(query);
    const ranked = terms.body.flatMap((term) => {
      const names = [term.term.en, term.term['zh-Hans']].map(normalize);
      const synonyms = [...term.synonyms.en, ...term.synonyms['zh-Hans']].map(normalize);
      const kind: (typeof MATCH_KINDS)[number] | null = names.includes(wanted)
        ? 'exact'
        : synonyms.includes(wanted) || normalize(term.termId) === wanted
          ? 'synonym'
          : [...names, ...synonyms].some((name) => name.includes(wanted) || (name.length > 1 && wanted.includes(name)))
            ? 'near'
            : null;
      return kind ? [{ termId: term.termId, match: kind, term: term.term, definition: term.definition, standards: term.standards }] : [];
    });
    ranked.sort((a, b) => MATCH_KINDS.indexOf(a.match) - MATCH_KINDS.indexOf(b.match) || a.termId.localeCompare(b.termId));
    return { ok: true, output: { query, matches: ranked.slice(0, limit) } };
  },
  render: ({ query, matches }) =>
    matches.length === 0
      ? `No term matches "${query}".`
      : matches.map((m) => `${m.term.en} / ${m.term['zh-Hans']} (${m.termId}, ${m.match}): ${m.definition.en}`).join('\n'),
});
