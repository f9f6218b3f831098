import { z } from 'zod';
import { registryIndex } from '../registry/registry-index';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized } from '../shared-schemas';
import { onboardingOf } from './onboarding';

export const roleName = z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'must be a role id like settlement-approver');

const output = z.object({
  role: z.string(),
  name: localized,
  tasks: z.array(z.object({ taskCode: z.string(), title: localized })),
  standards: z.array(z.string()),
  policies: z.array(z.object({ policyId: z.string(), citation: z.string(), title: localized })),
});

export const draftOnboardingProfile = defineTool({
  name: 'draft_onboarding_profile',
  title: 'Draft an onboarding profile',
  description: 'Tasks (prerequisites first), cited standards and policies to acknowledge for a role.',
  input: z.object({ role: roleName }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ role }, { registry }) {
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const definition = loaded.index.roles.get(role);
    if (!definition) return failure(`Unknown role ${role}; roles: ${[...loaded.index.roles.keys()].join(', ')}.`);
    return { ok: true, output: { role, name: definition.name, ...onboardingOf(role, loaded.index) } };
  },
  render: (o) =>
    [
      `${o.name.en} / ${o.name['zh-Hans']}`,
      `Tasks: ${o.tasks.map((t) => t.taskCode).join(' → ') || 'none'}`,
      `Standards: ${o.standards.join(', ') || 'none'}`,
      `Policies to acknowledge: ${o.policies.map((p) => p.citation).join(', ')}`,
    ].join('\n'),
});
