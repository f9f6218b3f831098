// The free-text tools: what they ask the registry for, and arguments refused before anything is asked.
import type { ToolCollaborators, GatewayTool } from './tool-definition';
import { recommendRole } from './people/recommend-role.tool';
import { draftAlignmentReport } from './registry/draft-alignment-report.tool';
import { resolveTerm } from './registry/resolve-term.tool';

/** A registry whose search finds nothing, and the searches it was asked. */
function searchingRegistry() {
  const asked: unknown[] = [];
  const registry = {
    search: async (query: unknown) => {
      asked.push(query);
      return { ok: true, status: 200, body: { hits: [] } };
    },
  };
  return { collaborators: { registry } as unknown as ToolCollaborators, asked };
}

const FREE_TEXT: [GatewayTool, string, number, string, number][] = [
  [resolveTerm, 'text', 100, 'terms', 5],
  [recommendRole, 'description', 2000, 'roles', 3],
  [draftAlignmentReport, 'practice', 4000, 'standards', 5],
];

describe.each(FREE_TEXT)('%s', (tool, field, maxLength, scope, defaultLimit) => {
  const limitField = tool === draftAlignmentReport ? 'maxStandards' : 'limit';

  it('asks the registry for the trimmed text, as many hits as asked and its default otherwise', async () => {
    const { collaborators, asked } = searchingRegistry();
    expect((await tool.invoke({ [field]: '  four eyes  ' }, collaborators)).kind).toBe('done');
    expect((await tool.invoke({ [field]: 'four eyes', [limitField]: 2 }, collaborators)).kind).toBe('done');
    expect(asked).toEqual([
      { q: 'four eyes', in: scope, limit: defaultLimit },
      { q: 'four eyes', in: scope, limit: 2 },
    ]);
  });

  it('refuses blank text and text over its length, asking nothing', async () => {
    const { collaborators, asked } = searchingRegistry();
    for (const value of ['', '   \n\t ', 'x'.repeat(maxLength + 1)]) {
      const invocation = await tool.invoke({ [field]: value }, collaborators);
      expect({ value: value.slice(0, 10), kind: invocation.kind }).toEqual({ value: value.slice(0, 10), kind: 'invalid_arguments' });
    }
    expect((await tool.invoke({ [field]: 'x'.repeat(maxLength) }, collaborators)).kind).toBe('done');
    expect(asked).toHaveLength(1);
  });
});
