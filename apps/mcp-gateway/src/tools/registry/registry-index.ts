// Registry lists read once per release and indexed the way several tools need them.
import type { PolicyDto, RoleDto, StandardSummaryDto, TaskSpecDto } from '@stdreg/contracts';
import type { RegistryCache } from '../../upstream/registry-cache';
import type { UpstreamResult } from '../../upstream/upstream-result';

export interface RegistryIndex {
  tasks: Map<string, TaskSpecDto>;
  roles: Map<string, RoleDto>;
  standards: Map<string, StandardSummaryDto>;
  policies: PolicyDto[];
}

/** The index of the current release, built once per release (callers share it: it is never changed). */
export async function registryIndex(registry: RegistryCache): Promise<{ ok: true; index: RegistryIndex } | { ok: false; message: string }> {
  const built = await registry.perRelease('registry-index', () => buildIndex(registry));
  return built.ok ? { ok: true, index: built.body } : { ok: false, message: built.message };
}

async function buildIndex(registry: RegistryCache): Promise<UpstreamResult<RegistryIndex>> {
  const [tasks, roles, standards, policies] = await Promise.all([
    registry.all('tasks'),
    registry.all('roles'),
    registry.all('standards'),
    registry.all('policies'),
  ]);
  if (!tasks.ok) return tasks;
  if (!roles.ok) return roles;
  if (!standards.ok) return standards;
  if (!policies.ok) return policies;
  return {
    ok: true,
    status: 200,
    body: {
      tasks: new Map(tasks.body.map((task) => [task.taskCode, task])),
      roles: new Map(roles.body.map((role) => [role.role, role])),
      standards: new Map(standards.body.map((standard) => [standard.sectionId, standard])),
      policies: policies.body,
    },
  };
}

/** The task and every prerequisite it needs, transitively, prerequisites first (stable by task code). */
export function taskPath(goal: string, tasks: Map<string, TaskSpecDto>): string[] {
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (code: string): void => {
    if (ordered.includes(code) || visiting.has(code)) return;
    visiting.add(code);
    for (const prerequisite of [...(tasks.get(code)?.prerequisites ?? [])].sort()) visit(prerequisite);
    visiting.delete(code);
    ordered.push(code);
  };
  visit(goal);
  return ordered;
}

/** The tasks a role takes part in, in an order that respects prerequisites. */
export function tasksOfRole(role: string, tasks: Map<string, TaskSpecDto>): TaskSpecDto[] {
  const codes = new Set<string>();
  for (const task of [...tasks.values()].filter((t) => t.roles.includes(role)).sort((a, b) => a.taskCode.localeCompare(b.taskCode))) {
    for (const code of taskPath(task.taskCode, tasks)) if (tasks.get(code)!.roles.includes(role)) codes.add(code);
  }
  return [...codes].map((code) => tasks.get(code)!);
}
