import { z } from 'zod';
import { registryIndex } from '../registry/registry-index';
import { keywords, sharedKeywords } from '../text-match';
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
  description: 'Rank registry roles for a described person or need, with the responsibilities that matched.',
  input: z
    .object({ description: text(2000).describe('The person or the need, in either language'), limit: z.int().min(1).max(12).default(3) })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ description, limit }, { registry }) {
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const wanted = keywords(description);
    const ranked = [...loaded.index.roles.values()].map((role) => {
      const nameWords = sharedKeywords(wanted, keywords(`${role.role.replace(/-/g, ' ')} ${role.name.en} ${role.name['zh-Hans']}`));
      const reasons = nameWords.length > 0 ? [`name matches: ${nameWords.join(', ')}`] : [];
      let score = nameWords.length * 3;
      const descriptionWords = sharedKeywords(wanted, keywords(`${role.description.en} ${role.description['zh-Hans']}`));
      if (descriptionWords.length > 0) reasons.push(`description matches: ${descriptionWords.join(', ')}`);
      score += descriptionWords.length * 2;
      role.responsibilities.en.forEach((responsibility, i) => {
        const shared = sharedKeywords(wanted, keywords(`${responsibility} ${role.responsibilities['zh-Hans'][i] ?? ''}`));
        if (shared.length > 0) reasons.push(`responsibility: ${responsibility}`);
        score += shared.length;
      });
      return { role: role.role, kind: role.kind, name: role.name, score, reasons };
    });
    const roles = ranked
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.role.localeCompare(b.role))
      .slice(0, limit);
    return { ok: true, output: { roles } };
  },
  render: (o) =>
    o.roles.length === 0
      ? 'No role matches the description; read stdreg://roles/{role} for the roles there are.'
      : o.roles.map((r) => `${r.name.en} / ${r.name['zh-Hans']} (${r.role}, score ${r.score}): ${r.reasons[0] ?? ''}`).join('\n'),
});
