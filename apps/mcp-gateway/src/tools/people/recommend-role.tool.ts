import { z } from 'zod';
import type { Localized } from '@stdreg/contracts';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized, text } from '../shared-schemas';

const output = z.object({
  roles: z.array(
    z.object({
      role: z.string(),
      kind: z.enum(['stakeholder', 'operational']),
      name: localized,
      score: z.number(),
      reasons: z.array(z.string()),
    }),
  ),
});

export const recommendRole = defineTool({
  name: 'recommend_role',
  title: 'Recommend a role',
  description:
    'Rank registry roles for a described person, need or task in either language, by search over names, responsibilities and tasks. Not an assignment.',
  input: z
    .object({ description: text(2000).describe('The person or the need, in either language'), limit: z.int().min(1).max(12).default(3) })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ description, limit }, { registry }) {
    const found = await registry.search({ q: description, in: 'roles', limit });
    if (!found.ok) return failure(found.message);
    const roles = found.body.hits.flatMap((hit) =>
      hit.role
        ? [
            {
              role: hit.role.role,
              kind: hit.role.kind,
              name: hit.role.name,
              score: hit.score,
              reasons: [`matched: ${hit.matchedWords.join(', ')}`, ...responsibilitiesHolding(hit.role.responsibilities, hit.matchedWords)],
            },
          ]
        : [],
    );
    return { ok: true, output: { roles } };
  },
  render: (o) =>
    o.roles.length === 0
      ? 'No role matches the description; read stdreg://roles/{role} for the roles there are.'
      : o.roles.map((r) => `${r.name.en} / ${r.name['zh-Hans']} (${r.role}, score ${r.score}): ${r.reasons[0] ?? ''}`).join('\n'),
});

/** The responsibilities, in either language, that hold a word the search matched: a Chinese description is answered from the Chinese ones. */
function responsibilitiesHolding(responsibilities: Localized<string[]>, words: string[]): string[] {
  const holds = (responsibility: string) => words.some((word) => responsibility.toLowerCase().includes(word));
  return [...responsibilities.en.filter(holds), ...responsibilities['zh-Hans'].filter(holds)];
}
