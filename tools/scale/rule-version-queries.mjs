// The hot queries of apps/standards-api/src/rule-versions/rule-versions.repository.ts, with the
// parameters a page and a new version bind, for the EXPLAIN that scale.bench.mjs writes beside the
// repository. The SQL is imported from rule-versions.repository.sql.ts (plain text, no decorators, so Node loads
// it as it is).
import {
  FIND_VERSION,
  LATEST_VERSION,
  LIST_VERSIONS,
  LOCK_PROJECT,
} from '../../apps/standards-api/src/rule-versions/rule-versions.repository.sql.ts';

/** Each query with its name, why it is hot, its SQL and its parameters, at the full project. */
export function ruleVersionQueries({ organizationId, projectId, ruleVersions, limit }) {
  return [
    {
      name: 'lockProject',
      why: 'Every new rule version (and the activation): the project row, so versions are numbered one at a time.',
      sql: LOCK_PROJECT,
      params: [projectId, organizationId],
    },
    {
      name: 'latest',
      why: "Every new rule version: the latest version's number and start, which the new one follows.",
      sql: LATEST_VERSION,
      params: [projectId],
    },
    {
      name: 'find',
      why: 'GET /split-projects/{id}/rule-versions/{version}, here the latest.',
      sql: FIND_VERSION,
      params: [projectId, ruleVersions],
    },
    {
      name: 'list, first page',
      why: "GET /split-projects/{id}/rule-versions: the project's first versions.",
      sql: LIST_VERSIONS,
      params: [projectId, 0, limit],
    },
    {
      name: 'list, after a cursor (the last page)',
      why: 'Any later page, here the last one.',
      sql: LIST_VERSIONS,
      params: [projectId, ruleVersions - limit + 1, limit],
    },
  ];
}
