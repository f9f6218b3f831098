import type { CreatedSplitProjectDto, SplitTemplateDto } from '@stdreg/contracts';
import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { displayName, failure, standardsApiRefusal } from '../shared-schemas';
import { readScenario, scenarioContent } from './scenario-input';

const output = z.object({
  status: z.literal('draft'),
  project: z.object({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    currency: z.string(),
    templateVersion: z.string(),
    createdAt: z.string(),
  }),
  scenario: z.object({ id: z.string(), name: z.string(), revision: z.int(), rulesDigest: z.string() }),
  resourceUri: z.string(),
});

export const draftSplitProject = defineTool({
  name: 'draft_split_project',
  title: 'Draft a split project',
  description: 'Validate, then create a draft split project with its first scenario (non-authoritative; activation stays with humans).',
  input: z
    .object({
      name: displayName(200),
      currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like EUR'),
      templateVersion: z.string().regex(/^[0-9]+\.[0-9]+$/, 'must look like 2.0'),
      scenario: z.object({ name: displayName(200), content: scenarioContent }).strict(),
      idempotencyKey: z
        .string()
        .regex(/^[\x21-\x7e]{1,200}$/, 'must be 1-200 printable characters without spaces')
        .optional()
        .describe('Retrying with the same key returns the first draft instead of creating another'),
    })
    .strict(),
  output,
  // Idempotent only with an idempotencyKey, so not in general.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'projects:draft',
  uses: ({ registry, standardsApi, caller }) => ({ registry, standardsApi, caller }),
  async run(input, { registry, standardsApi, caller }) {
    const read = readScenario(input.scenario.content);
    if (!read.ok) return failure(read.message);
    if (read.scenario.currency !== input.currency)
      return failure(`The scenario is in ${read.scenario.currency} but the project in ${input.currency}; use one currency.`);
    const template = await registry.read<SplitTemplateDto>(`/split-templates/${input.templateVersion}`);
    if (!template.ok)
      return failure(
        template.status === 404 ? `No split template ${input.templateVersion}; read stdreg://split-templates/{version}.` : template.message,
      );
    if (!caller.organization.ok) return failure(`Refused: ${caller.organization.message}`, caller.organization.code);
    // standards-api asks identity for split-project:draft itself before it writes; asking here too would ask the same question twice.
    const { idempotencyKey, ...draft } = input;
    const created = await standardsApi.postDraft<CreatedSplitProjectDto>('/split-projects', draft, {
      credential: caller.credential,
      organizationId: caller.organization.organizationId,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    if (!created.ok) return standardsApiRefusal(created, 'the draft');
    const { project, scenario } = created.body;
    return {
      ok: true,
      output: {
        status: 'draft' as const,
        project: {
          id: project.id,
          organizationId: project.organizationId,
          name: project.name,
          currency: project.currency,
          templateVersion: project.templateVersion,
          createdAt: project.createdAt,
        },
        scenario: { id: scenario.id, name: scenario.name, revision: scenario.revision, rulesDigest: scenario.rulesDigest },
        resourceUri: `stdreg://split-projects/${project.id}`,
      },
    };
  },
  render: (o) =>
    `Draft split project "${o.project.name}" created (${o.resourceUri}), first scenario "${o.scenario.name}" revision ${o.scenario.revision}. Not activated.`,
});
