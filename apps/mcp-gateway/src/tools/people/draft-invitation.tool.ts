import { z } from 'zod';
import { registryIndex } from '../registry/registry-index';
import { defineTool } from '../tool-definition';
import { failure, localized, locale } from '../shared-schemas';
import { roleName } from './draft-onboarding-profile.tool';

const output = z.object({
  sent: z.literal(false),
  payload: z.object({ email: z.string(), role: z.string(), organizationName: z.string(), language: locale }),
  subject: localized,
  body: localized,
});

export const draftInvitation = defineTool({
  name: 'draft_invitation',
  title: 'Draft an invitation',
  description: 'Text and payload of an invitation to a role. Nothing is sent.',
  input: z
    .object({
      email: z.email(),
      role: roleName,
      organizationName: z.string().trim().min(1).max(200),
      inviterName: z.string().trim().min(1).max(200).optional(),
      language: locale.default('en'),
    })
    .strict(),
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ email, role, organizationName, inviterName, language }, { registry }) {
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const definition = loaded.index.roles.get(role);
    if (!definition) return failure(`Unknown role ${role}; roles: ${[...loaded.index.roles.keys()].join(', ')}.`);
    const from = inviterName ?? organizationName;
    return {
      ok: true,
      output: {
        sent: false as const,
        payload: { email, role, organizationName, language },
        subject: {
          en: `${organizationName} invites you as ${definition.name.en}`,
          'zh-Hans': `${organizationName} 邀请您担任${definition.name['zh-Hans']}`,
        },
        body: {
          en: `${from} invites you to join ${organizationName} as ${definition.name.en}. ${definition.description.en} Sign in with your organization account to accept.`,
          'zh-Hans': `${from} 邀请您以${definition.name['zh-Hans']}身份加入 ${organizationName}。${definition.description['zh-Hans']} 请使用组织账户登录以接受邀请。`,
        },
      },
    };
  },
  render: (o) => `Draft (not sent) to ${o.payload.email}:\n${o.subject[o.payload.language]}\n\n${o.body[o.payload.language]}`,
});
