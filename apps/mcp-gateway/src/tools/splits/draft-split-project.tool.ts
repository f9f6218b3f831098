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
  replayed: z
    .boolean()
    .describe('true: an earlier call with this idempotencyKey made this draft and nothing was created now; false: created by this call'),
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
    // standards-api marks the answer it kept for a repeated key (Idempotent-Replayed): the agent must not count it as a second draft.
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
        replayed: created.replayed === true,
      },
    };
  },
  render: (o) => (o.replayed ? replayedText(o) : createdText(o)),
});

type DraftOutput = z.output<typeof output>;

function createdText({ project, scenario, resourceUri }: DraftOutput): string {
  return [
    `Draft split project "${project.name}" created (${resourceUri}), first scenario "${scenario.name}" revision ${scenario.revision}. Not activated.`,
    `已起草分账项目「${project.name}」（${resourceUri}），首个经营方案「${scenario.name}」第 ${scenario.revision} 次修订。未启用。`,
  ].join('\n');
}

function replayedText({ project, scenario, resourceUri }: DraftOutput): string {
  return [
    `Replayed, nothing created now: an earlier call with this idempotencyKey drafted split project "${project.name}" (${resourceUri}), first scenario "${scenario.name}" revision ${scenario.revision}. Not activated.`,
    `重放，本次未新建：先前使用同一 idempotencyKey 的调用已起草分账项目「${project.name}」（${resourceUri}），首个经营方案「${scenario.name}」第 ${scenario.revision} 次修订。未启用。`,
  ].join('\n');
}
