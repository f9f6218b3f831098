// The registry tools against a registry that answers what each test says: what they conclude from its blocks,
// and that a registry that could not answer is the tool's failure, never a finding about the citation.
import type { StandardBlockDto } from '@stdreg/contracts';
import type { ToolCollaborators, ToolInvocation } from '../tool-definition';
import type { UpstreamResult } from '../../upstream/upstream-result';
import { compareStandardVersions } from './compare-standard-versions.tool';
import { validateStandardReference } from './validate-standard-reference.tool';
import { validateTaskspec } from './validate-taskspec.tool';

const text = (en: string, zh = `${en}（中文）`) => ({ en, 'zh-Hans': zh });
const UNREACHABLE = 'standards-api is unreachable or did not answer in time.';
const UNAVAILABLE: UpstreamResult<never> = { ok: false, status: 503, message: UNREACHABLE };
type Blocks = Record<string, StandardBlockDto | UpstreamResult<never>>;

function block(version: string, clauses: Record<string, { en: string; 'zh-Hans': string }>, more: Partial<StandardBlockDto> = {}) {
  return {
    sectionId: 'RUL-3',
    version,
    status: 'current',
    supersededBy: null,
    versions: ['1.0', '2.0'],
    citation: `RUL-3@${version}`,
    title: text('Splits'),
    summary: text('How splits work'),
    clauses: Object.entries(clauses).map(([clauseId, clauseText]) => ({ clauseId, text: clauseText })),
    ...more,
  } as StandardBlockDto;
}

/** A registry answering reads of `/standards/RUL-3` by version ('' for the current one), and the lists of the index. */
function registryOf(blocks: Blocks, lists: Record<string, unknown[]> = {}) {
  const reads: string[] = [];
  const registry = {
    read: async (path: string, query: { version?: string } = {}) => {
      reads.push(`${path}@${query.version ?? ''}`);
      const found = path === '/standards/RUL-3' ? blocks[query.version ?? ''] : undefined;
      if (found === undefined) return { ok: false, status: 404, message: 'Not found' };
      return 'ok' in found ? found : { ok: true, status: 200, body: found };
    },
    perRelease: (_key: string, build: () => Promise<unknown>) => build(),
    all: async (collection: string) => ({ ok: true, status: 200, body: lists[collection] ?? [] }),
  };
  return { collaborators: { registry } as unknown as ToolCollaborators, reads };
}

const output = (invocation: ToolInvocation) => {
  if (invocation.kind !== 'done') throw new Error(`${invocation.kind}: ${JSON.stringify(invocation)}`);
  return invocation.output;
};

describe('compare_standard_versions', () => {
  it('calls a clause changed when only its Chinese changed, and says whether the title changed', async () => {
    const before = block('1.0', { '1': text('Shares are integers.', '份额为整数。') });
    const after = block('2.0', { '1': text('Shares are integers.', '份额必须为整数。') }, { title: text('Split rules') });
    const { collaborators } = registryOf({ '1.0': before, '2.0': after });
    expect(output(await compareStandardVersions.invoke({ sectionId: 'RUL-3', from: '1.0', to: '2.0' }, collaborators))).toMatchObject({
      titleChanged: true,
      summaryChanged: false,
      clauses: [{ clauseId: '1', change: 'changed' }],
    });
    const same = registryOf({ '1.0': before, '2.0': { ...before, version: '2.0' } }).collaborators;
    expect(output(await compareStandardVersions.invoke({ sectionId: 'RUL-3', from: '1.0', to: '2.0' }, same))).toMatchObject({
      titleChanged: false,
      clauses: [{ clauseId: '1', change: 'unchanged' }],
    });
  });

  it('says a version does not exist only when the registry says so, and passes on that it could not answer', async () => {
    const { collaborators } = registryOf({ '1.0': block('1.0', {}), '2.0': UNAVAILABLE });
    expect(await compareStandardVersions.invoke({ sectionId: 'RUL-3', from: '1.0', to: '2.0' }, collaborators)).toEqual({
      kind: 'failed',
      message: UNREACHABLE,
      code: 'tool_refused',
    });
  });
});

describe('validate_standard_reference', () => {
  it('fails when the registry cannot be read, never calling the block or its version absent', async () => {
    const cases: Blocks[] = [{ '': UNAVAILABLE }, { '': block('2.0', { '1': text('x') }), '1.0': UNAVAILABLE }];
    for (const blocks of cases) {
      const { collaborators } = registryOf(blocks);
      expect(await validateStandardReference.invoke({ reference: 'RUL-3@1.0#1' }, collaborators)).toMatchObject({
        kind: 'failed',
        message: expect.stringContaining('unreachable'),
      });
    }
  });
});

describe('validate_taskspec', () => {
  const task = {
    taskCode: 'TSK-002',
    title: text('Task'),
    description: text('A task'),
    roles: ['investor'],
    prerequisites: ['TSK-001'],
    inputs: [],
    outputs: [{ name: 'report', description: text('Report') }],
    acceptanceCriteria: [text('Done')],
    standards: ['RUL-3@2.0#1'],
  };
  const lists = {
    tasks: [
      { taskCode: 'TSK-001', prerequisites: [] },
      { taskCode: 'TSK-002', prerequisites: [] },
    ],
    roles: [{ role: 'investor' }],
  };
  const current = { '2.0': block('2.0', { '1': text('Shares are integers.') }) };

  const errorsOf = async (taskSpec: Record<string, unknown>, blocks: Blocks = current) =>
    (output(await validateTaskspec.invoke({ taskSpec }, registryOf(blocks, lists).collaborators)) as { errors: unknown[] }).errors;

  it('accepts a task whose roles, prerequisites and cited clauses are in the registry', async () => {
    expect(await errorsOf(task)).toEqual([]);
  });

  it('refuses a task that is its own prerequisite, a clause the block lacks, and a citation without a version', async () => {
    expect(await errorsOf({ ...task, prerequisites: ['TSK-002'] })).toEqual([
      { path: '/prerequisites/0', message: 'A task cannot be its own prerequisite.' },
    ]);
    expect(await errorsOf({ ...task, standards: ['RUL-3@2.0#7'] })).toEqual([
      { path: '/standards/0', message: 'RUL-3@2.0#7 names a clause that does not exist.' },
    ]);
    expect(await errorsOf({ ...task, standards: ['RUL-3'] }, { ...current, '': current['2.0'] })).toEqual([
      { path: '/standards/0', message: 'RUL-3 is not a versioned citation like RUL-3@2.0.' },
    ]);
  });

  it('fails when a cited block cannot be read, never calling the citation absent', async () => {
    const { collaborators } = registryOf({ '2.0': UNAVAILABLE }, lists);
    expect(await validateTaskspec.invoke({ taskSpec: task }, collaborators)).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('unreachable'),
    });
  });
});
