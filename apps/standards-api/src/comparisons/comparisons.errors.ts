import { DomainError } from '@stdreg/server-kit';

export const scenarioNotInProject = (scenarioId: string, projectId: string) =>
  DomainError.of(
    'comparisons.scenario_not_in_project',
    `Operating scenario ${scenarioId} is not a scenario of split project ${projectId} in this organization.`,
  );

export const notComparable = (reason: string) =>
  DomainError.of('comparisons.not_comparable', `The scenarios cannot be compared: ${reason}.`);
