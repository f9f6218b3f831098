import { z } from 'zod';
import { registryIndex, taskPath } from '../registry/registry-index';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized } from '../shared-schemas';

const taskCode = z.string().regex(/^TSK-[0-9]{3}$/, 'must look like TSK-012');

const output = z.object({
  goal: z.string(),
  path: z.array(
    z.object({ step: z.int(), taskCode: z.string(), title: localized, roles: z.array(z.string()), prerequisites: z.array(z.string()) }),
  ),
  alreadyDone: z.array(z.string()),
});

export const proposeTaskPath = defineTool({
  name: 'propose_task_path',
  title: 'Propose a task path',
  description: 'Ordered tasks to reach a goal task through its prerequisites, skipping tasks already done.',
  input: z.object({ goal: taskCode, completedTasks: z.array(taskCode).max(200).default([]) }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ goal, completedTasks }, { registry }) {
    const loaded = await registryIndex(registry);
    if (!loaded.ok) return failure(loaded.message);
    const { tasks } = loaded.index;
    if (!tasks.has(goal)) return failure(`Unknown task ${goal}; read stdreg://taskspec/{taskCode} (completion lists the codes).`);
    const done = new Set(completedTasks);
    const all = taskPath(goal, tasks);
    const path = all
      .filter((code) => !done.has(code))
      .map((code, i) => {
        const task = tasks.get(code)!;
        return { step: i + 1, taskCode: code, title: task.title, roles: task.roles, prerequisites: task.prerequisites };
      });
    return { ok: true, output: { goal, path, alreadyDone: all.filter((code) => done.has(code)) } };
  },
  render: (o) =>
    o.path.length === 0
      ? `${o.goal} is already done.`
      : o.path.map((p) => `${p.step}. ${p.taskCode} ${p.title.en} / ${p.title['zh-Hans']}`).join('\n'),
});
