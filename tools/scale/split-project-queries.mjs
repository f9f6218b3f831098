// The hot queries of apps/standards-api/src/split-projects/split-projects.repository.ts, with the
// parameters a page binds, for the EXPLAIN that scale.bench.mjs writes beside the repository. The SQL
// is imported from split-projects.repository.sql.ts (plain text, no decorators, so Node loads it as it is).
import {
  FIND_CURRENT_REVISIONS,
  FIND_PROJECT,
  FIND_REVISION,
  FIND_SCENARIO,
  LIST_PROJECTS,
  LIST_REVISIONS,
  LIST_SCENARIOS,
  LOCK_SCENARIO,
} from '../../apps/standards-api/src/split-projects/split-projects.repository.sql.ts';

/** Each query with its name, why it is hot, its SQL and its parameters, at the full organization. */
export function splitProjectQueries({ organizationId, afterProjectId, projectId, scenarioId, revisions, limit, revisionsLimit }) {
  return [
    {
      name: 'listProjects, first page',
      why: "GET /split-projects: the organization's first projects in id order.",
      sql: LIST_PROJECTS,
      params: [organizationId, null, limit],
    },
    {
      name: 'listProjects, after a cursor (the last page)',
      why: 'Any later page, here the last one.',
      sql: LIST_PROJECTS,
      params: [organizationId, afterProjectId, limit],
    },
    {
      name: 'findProject',
      why: 'GET /split-projects/{id}, and every request on a project (its organization checked).',
      sql: FIND_PROJECT,
      params: [projectId, organizationId],
    },
    {
      name: 'listScenarios',
      why: "GET /split-projects/{id}/scenarios: a page of the project's scenarios.",
      sql: LIST_SCENARIOS,
      params: [projectId, null, limit],
    },
    {
      name: 'findCurrentRevisions',
      why: "The scenarios page's current revisions, one probe per scenario.",
      sql: FIND_CURRENT_REVISIONS,
      params: [[scenarioId]],
    },
    {
      name: 'findScenario',
      why: 'GET /operating-scenarios/{id}, and every revision (with the current revision number).',
      sql: FIND_SCENARIO,
      params: [scenarioId, organizationId],
    },
    {
      name: 'lockScenario',
      why: "Every new revision (PATCH /operating-scenarios/{id}): the scenario's row, so revisions are numbered one after another; then findScenario for its current revision.",
      sql: LOCK_SCENARIO,
      params: [scenarioId, organizationId],
    },
    {
      name: 'findRevision',
      why: 'A scenario at its current revision or at ?revision=.',
      sql: FIND_REVISION,
      params: [scenarioId, 1],
    },
    {
      name: 'listRevisions, after a cursor (the last page)',
      why: "GET /operating-scenarios/{id}/revisions: a page of the scenario's history.",
      sql: LIST_REVISIONS,
      params: [scenarioId, revisions - revisionsLimit, revisionsLimit + 1],
    },
  ];
}
