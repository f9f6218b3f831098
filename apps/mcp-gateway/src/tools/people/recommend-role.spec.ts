// recommend_role's reasons over a real role of the sample pack, for a description in either language.
import { loadPack, samplePackDirectory, type ContentPack } from '@stdreg/registry-content';
import type { ToolCollaborators, ToolInvocation } from '../tool-definition';
import { recommendRole } from './recommend-role.tool';

let pack: ContentPack;
beforeAll(async () => {
  const loaded = await loadPack(samplePackDirectory());
  if (!loaded.ok) throw new Error('sample pack invalid');
  pack = loaded.pack;
});

const searchingWith = (matchedWords: string[]) =>
  ({
    registry: {
      search: async () => {
        const role = pack.roles.find((r) => r.role === 'settlement-approver')!;
        return { ok: true, status: 200, body: { hits: [{ kind: 'role', score: 3.2, matchedWords, role }] } };
      },
    },
  }) as unknown as ToolCollaborators;

const reasons = (invocation: ToolInvocation) => {
  if (invocation.kind !== 'done') throw new Error(`${invocation.kind}: ${JSON.stringify(invocation)}`);
  return (invocation.output as { roles: { reasons: string[] }[] }).roles[0]!.reasons;
};

describe('recommend_role', () => {
  it('gives a Chinese description the Chinese responsibilities it matched, as an English one gets the English', async () => {
    const zh = reasons(await recommendRole.invoke({ description: '谁来审批结算批次' }, searchingWith(['审批'])));
    expect(zh).toEqual(['matched: 审批', '拒绝审批由本人准备的任何结算批次。']);
    const en = reasons(await recommendRole.invoke({ description: 'who posts settlement runs' }, searchingWith(['post'])));
    expect(en).toEqual(['matched: post', 'Approve and post settlement runs with explicit human confirmation.']);
  });
});
