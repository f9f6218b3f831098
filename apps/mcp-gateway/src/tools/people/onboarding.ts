// What a role must do and acknowledge: its tasks, the standards they cite and the policies in force.
import { compareBlockReferences, type LocalizedTextDto } from '@stdreg/contracts';
import { type RegistryIndex, tasksOfRole } from '../registry/registry-index';

export interface OnboardingRequirements {
  tasks: { taskCode: string; title: LocalizedTextDto }[];
  standards: string[];
  policies: { policyId: string; citation: string; title: LocalizedTextDto }[];
}

export function onboardingOf(role: string, index: RegistryIndex): OnboardingRequirements {
  const tasks = tasksOfRole(role, index.tasks);
  return {
    tasks: tasks.map((task) => ({ taskCode: task.taskCode, title: task.title })),
    standards: [...new Set(tasks.flatMap((task) => task.standards))].sort(compareBlockReferences),
    policies: index.policies.map((policy) => ({ policyId: policy.policyId, citation: policy.citation, title: policy.title })),
  };
}
