// What draft_split_project sends to standards-api, on whose behalf, and what it refuses before sending anything.
import { sampleScenario } from '@stdreg/server-kit/testing';
import type { AuthorizedCaller } from '../../callers/gateway-authorization';
import type { UpstreamResult } from '../../upstream/upstream-result';
import type { ToolCollaborators } from '../tool-definition';
import { draftSplitProject } from './draft-split-project.tool';

const KEY_ORG = '01900000-0000-7000-8000-00000000000a';
const NAMED_ORG = '01900000-0000-7000-8000-00000000000b';
const credential = { kind: 'api_key' as const, value: 'stdreg_app_secret' };

/** A caller acting in NAMED_ORG (its X-Organization-Id) with a key of KEY_ORG; standards-api's drafts and the template read recorded. */
function collaboratorsOf(template: UpstreamResult<unknown> = { ok: true, status: 200, body: { version: '2.0' } }) {
  const drafts: { path: string; body: unknown; actingAs: unknown }[] = [];
  const caller: AuthorizedCaller = {
    credential,
    organization: { ok: true, organizationId: NAMED_ORG },
    subject: { kind: 'app_key', id: 'key-1', organizationId: KEY_ORG } as AuthorizedCaller['subject'],
  };
  const standardsApi = {
    postDraft: async (path: string, body: unknown, actingAs: unknown) => {
      drafts.push({ path, body, actingAs });
      const now = '2026-01-01T00:00:00.000Z';
      const project = { id: 'p-1', organizationId: NAMED_ORG, name: 'Draft', currency: 'EUR', templateVersion: '2.0', createdAt: now };
      return { ok: true, status: 201, body: { project, scenario: { id: 's-1', name: 'Baseline', revision: 1, rulesDigest: 'sha256:x' } } };
    },
  };
  const registry = { read: async () => template };
  return { collaborators: { caller, standardsApi, registry } as unknown as ToolCollaborators, drafts };
}

const draft = (more: Record<string, unknown> = {}) => ({
  name: 'Draft',
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
  ...more,
});

describe('draft_split_project', () => {
  it('drafts in the organization the call acts in, with the caller’s credential, the key only as a header', async () => {
    const { collaborators, drafts } = collaboratorsOf();
    expect((await draftSplitProject.invoke(draft({ idempotencyKey: 'retry-1' }), collaborators)).kind).toBe('done');
    expect(drafts).toEqual([
      {
        path: '/split-projects',
        body: draft(),
        actingAs: { credential, organizationId: NAMED_ORG, idempotencyKey: 'retry-1' },
      },
    ]);
  });

  it('refuses scenario content that breaks a rule without sending anything', async () => {
    const { collaborators, drafts } = collaboratorsOf();
    const broken = sampleScenario();
    (broken['tiers'] as Record<string, unknown>[])[1]!['shares'] = [{ participantId: 'alice', basisPoints: 6000 }];
    expect(await draftSplitProject.invoke(draft({ scenario: { name: 'Baseline', content: broken } }), collaborators)).toMatchObject({
      kind: 'failed',
      code: 'tool_refused',
      message: expect.stringContaining('Invalid scenario content'),
    });
    expect(drafts).toEqual([]);
  });

  it('refuses a name standards-api would refuse as display text (blank, control or bidirectional characters) without sending anything', async () => {
    const { collaborators, drafts } = collaboratorsOf();
    for (const name of ['\u200b', 'Split\u202Eevil', 'Two\nlines'])
      for (const input of [draft({ name }), draft({ scenario: { name, content: sampleScenario() } })])
        expect([name, (await draftSplitProject.invoke(input, collaborators)).kind]).toEqual([name, 'invalid_arguments']);
    expect(drafts).toEqual([]);
    expect((await draftSplitProject.invoke(draft({ name: 'مشروع Split 😀' }), collaborators)).kind).toBe('done');
  });

  it('says a template is missing only when the registry says so, and sends nothing either way', async () => {
    const missing = collaboratorsOf({ ok: false, status: 404, message: 'Not found' });
    expect(await draftSplitProject.invoke(draft(), missing.collaborators)).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('No split template 2.0'),
    });
    const away = collaboratorsOf({ ok: false, status: 503, message: 'standards-api is unreachable or did not answer in time.' });
    expect(await draftSplitProject.invoke(draft(), away.collaborators)).toMatchObject({
      kind: 'failed',
      message: 'standards-api is unreachable or did not answer in time.',
    });
    expect([...missing.drafts, ...away.drafts]).toEqual([]);
  });
});
