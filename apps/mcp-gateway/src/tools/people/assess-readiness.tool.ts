import { z } from 'zod';
import { registryIndex, taskPath } from '../registry/registry-index';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure } from '../shared-schemas';
import { onboardingOf } from './onboarding';
import { roleName } from './draft-onboarding-profile.tool';

const REQUIREMENT_KINDS = ['task', 'standard', 'policy'] as const;
const codes = (max: number) => z.array(z.string().min(1).max(60)).max(max).default([]);

const output = z.object({
  target: z.string(),
  score: z.number().min(0).max(100),
  met: z.array(z.object({ kind: z.enum(REQUIREMENT_KINDS), id: z.string() })),
  gaps: z.array(z.object({ kind: z.enum(REQUIREMENT_KINDS), id: z.string(), action: z.string() })),
});

export const assessReadiness = defineTool({
  name: 'assess_readiness',
  title: 'Assess readiness',
  description: "Compare a profile (done tasks, acknowledged standards and policies) with a role's or task's requirements: score and gaps.",
  input: z
    .object({
      role: roleName.optional(),
      taskCode: z
        .string()
        .regex(/^TSK-[0-9]{3}$/, 'must look like TSK-012')
        .optional(),
      completedTasks: codes(200),
      acknowledgedStandards: codes(200).describe('Citations like RUL-3@2.0'),
      acknowledgedPolicies: codes(50).describe('Citations like agent-use@2.0'),
    })
    .strict()
    .refine((v) => (v.role === undefined) !== (v.taskCode === undefined), { message: 'give exactly one of role or taskCode' }),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run(input, { registry }) {
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const { index } = loaded;
    let requirements: { kind: (typeof REQUIREMENT_KINDS)[number]; id: string }[];
    if (input.role !== undefined) {
      if (!index.roles.has(input.role)) return failure(`Unknown role ${input.role}.`);
      const needs = onboardingOf(input.role, index);
      requirements = [
        ...needs.tasks.map((t) => ({ kind: 'task' as const, id: t.taskCode })),
        ...needs.standards.map((id) => ({ kind: 'standard' as const, id })),
        ...needs.policies.map((p) => ({ kind: 'policy' as const, id: p.citation })),
      ];
    } else {
      const task = index.tasks.get(input.taskCode!);
      if (!task) return failure(`Unknown task ${input.taskCode}.`);
      requirements = [
        ...taskPath(task.taskCode, index.tasks)
          .filter((code) => code !== task.taskCode)
          .map((id) => ({ kind: 'task' as const, id })),
        ...task.standards.map((id) => ({ kind: 'standard' as const, id })),
      ];
    }
    const have = {
      task: new Set(input.completedTasks),
      standard: new Set(input.acknowledgedStandards),
      policy: new Set(input.acknowledgedPolicies),
    };
    const met = requirements.filter((r) => have[r.kind].has(r.id));
    const verbs = { task: 'complete task', standard: 'acknowledge standard', policy: 'acknowledge policy' };
    const gaps = requirements.filter((r) => !have[r.kind].has(r.id)).map((r) => ({ ...r, action: `${verbs[r.kind]} ${r.id}` }));
    const score = requirements.length === 0 ? 100 : Math.round((met.length / requirements.length) * 1000) / 10;
    return { ok: true, output: { target: input.role ?? input.taskCode!, score, met, gaps } };
  },
  render: (o) => `${o.target}: ${o.score}% ready.${o.gaps.length > 0 ? `\nGaps: ${o.gaps.map((g) => g.action).join('; ')}` : ''}`,
});
