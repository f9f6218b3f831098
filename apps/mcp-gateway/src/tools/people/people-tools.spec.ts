// The people tools over a small registry: what a role or a task requires, and what an unknown one gets.
import type { ToolCollaborators, ToolInvocation } from '../tool-definition';
import { assessReadiness } from './assess-readiness.tool';
import { draftInvitation } from './draft-invitation.tool';
import { proposeTaskPath } from './propose-task-path.tool';

const text = (en: string) => ({ en, 'zh-Hans': `${en}（中文）` });
const task = (taskCode: string, prerequisites: string[], roles: string[], standards: string[] = []) => ({
  taskCode,
  title: text(taskCode),
  roles,
  prerequisites,
  standards,
});
const LISTS: Record<string, unknown[]> = {
  tasks: [
    task('TSK-001', [], ['investor']),
    task('TSK-002', ['TSK-001'], ['investor'], ['RUL-3@2.0']),
    task('TSK-003', ['TSK-002'], ['owner']),
  ],
  roles: [
    { role: 'investor', name: text('Investor'), description: text('Puts money in.') },
    { role: 'owner', name: text('Owner'), description: text('Owns the project.') },
  ],
  standards: [],
  policies: [{ policyId: 'agent-use', citation: 'agent-use@2.0', title: text('Agent use') }],
};
const collaborators = {
  registry: {
    perRelease: (_key: string, build: () => Promise<unknown>) => build(),
    all: async (collection: string) => ({ ok: true, status: 200, body: LISTS[collection] ?? [] }),
  },
} as unknown as ToolCollaborators;

const output = (invocation: ToolInvocation) => {
  if (invocation.kind !== 'done') throw new Error(`${invocation.kind}: ${JSON.stringify(invocation)}`);
  return invocation.output;
};

describe('assess_readiness', () => {
  it('requires of a role its tasks, their standards and every policy; of a task its prerequisites and standards, not itself', async () => {
    expect(output(await assessReadiness.invoke({ role: 'investor', completedTasks: ['TSK-001'] }, collaborators))).toEqual({
      target: 'investor',
      score: 25,
      met: [{ kind: 'task', id: 'TSK-001' }],
      gaps: [
        { kind: 'task', id: 'TSK-002', action: 'complete task TSK-002' },
        { kind: 'standard', id: 'RUL-3@2.0', action: 'acknowledge standard RUL-3@2.0' },
        { kind: 'policy', id: 'agent-use@2.0', action: 'acknowledge policy agent-use@2.0' },
      ],
    });
    expect(output(await assessReadiness.invoke({ taskCode: 'TSK-003', completedTasks: ['TSK-001', 'TSK-002'] }, collaborators))).toEqual({
      target: 'TSK-003',
      score: 100,
      met: [
        { kind: 'task', id: 'TSK-001' },
        { kind: 'task', id: 'TSK-002' },
      ],
      gaps: [],
    });
  });

  it('scores a task that requires nothing 100, and refuses a role the registry does not have', async () => {
    expect(output(await assessReadiness.invoke({ taskCode: 'TSK-001' }, collaborators))).toMatchObject({ score: 100, gaps: [] });
    expect(await assessReadiness.invoke({ role: 'wizard' }, collaborators)).toEqual({
      kind: 'failed',
      message: 'Unknown role wizard.',
      code: 'tool_refused',
    });
  });
});

describe('propose_task_path', () => {
  it('numbers the steps left from 1', async () => {
    expect(output(await proposeTaskPath.invoke({ goal: 'TSK-003', completedTasks: ['TSK-001'] }, collaborators))).toMatchObject({
      path: [
        { step: 1, taskCode: 'TSK-002' },
        { step: 2, taskCode: 'TSK-003' },
      ],
      alreadyDone: ['TSK-001'],
    });
  });
});

describe('draft_invitation', () => {
  it('is from the inviter when named, else from the organization; and refuses a role the registry does not have', async () => {
    const invitation = { email: 'li@example.com', role: 'investor', organizationName: 'Studio Nine' };
    expect(output(await draftInvitation.invoke({ ...invitation, inviterName: 'Ada' }, collaborators))).toMatchObject({
      sent: false,
      body: { en: expect.stringMatching(/^Ada invites you to join Studio Nine as Investor/) },
    });
    expect(output(await draftInvitation.invoke(invitation, collaborators))).toMatchObject({
      body: { en: expect.stringMatching(/^Studio Nine invites you/) },
    });
    expect(await draftInvitation.invoke({ ...invitation, role: 'wizard' }, collaborators)).toEqual({
      kind: 'failed',
      message: 'Unknown role wizard; roles: investor, owner.',
      code: 'tool_refused',
    });
  });
});
