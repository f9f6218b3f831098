// resolve_term's text: a term found by its Chinese name reads its definition in Chinese too, not only in English.
import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import type { ToolCollaborators } from '../tool-definition';
import { resolveTerm } from './resolve-term.tool';

describe('resolve_term', () => {
  it('renders each match with its name and definition in both languages', async () => {
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('sample pack invalid');
    const term = loaded.pack.terms[0]!;
    const collaborators = {
      registry: {
        search: async () => ({
          ok: true,
          status: 200,
          body: { hits: [{ kind: 'term', score: 5, match: 'exact', matchedWords: [], term }] },
        }),
      },
    } as unknown as ToolCollaborators;
    const invocation = await resolveTerm.invoke({ text: term.term['zh-Hans'] }, collaborators);
    if (invocation.kind !== 'done') throw new Error(invocation.kind);
    expect(invocation.text).toContain(term.term['zh-Hans']);
    expect(invocation.text).toContain(term.definition['zh-Hans']);
    expect(invocation.text).toContain(term.definition.en);
  });
});
