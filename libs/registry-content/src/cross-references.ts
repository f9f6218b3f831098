// Rules that span records or files: uniqueness, references, version order, cycles.
import { PACK_FILES, type ContentPack, type PackIssue } from './pack-types';
import { compareVersions } from '@stdreg/contracts';

type Issue = (file: keyof ContentPack, path: string, message: string) => void;

export function checkCrossReferences(pack: ContentPack): PackIssue[] {
  const issues: PackIssue[] = [];
  const issue: Issue = (file, path, message) => issues.push({ file: PACK_FILES[file], path, message });

  const blockVersions = new Set(pack.standards.map((b) => `${b.sectionId}@${b.version}`));
  const sectionIds = new Set(pack.standards.map((b) => b.sectionId));
  const roles = new Set(pack.roles.map((r) => r.role));
  const termIds = new Set(pack.terms.map((t) => t.termId));
  const taskCodes = new Set(pack.tasks.map((t) => t.taskCode));

  checkStandards(pack, issue);
  duplicates(
    pack.terms.map((t) => t.termId),
    (i, id) => issue('terms', `/${i}/termId`, `duplicates termId "${id}"`),
  );
  duplicates(
    pack.roles.map((r) => r.role),
    (i, id) => issue('roles', `/${i}/role`, `duplicates role "${id}"`),
  );
  duplicates(
    pack.tasks.map((t) => t.taskCode),
    (i, id) => issue('tasks', `/${i}/taskCode`, `duplicates taskCode "${id}"`),
  );

  pack.terms.forEach((term, i) => {
    term.related?.forEach((id, j) => {
      if (id === term.termId) issue('terms', `/${i}/related/${j}`, 'a term cannot be related to itself');
      else if (!termIds.has(id)) issue('terms', `/${i}/related/${j}`, `names unknown term "${id}"`);
    });
    term.standards?.forEach((id, j) => {
      if (!sectionIds.has(id)) issue('terms', `/${i}/standards/${j}`, `names unknown standards block "${id}"`);
    });
  });

  pack.standards.forEach((block, i) => {
    block.clauses.forEach((clause, j) => {
      for (const [kind, phrases] of Object.entries(clause.conditions ?? {})) {
        for (const [locale, list] of Object.entries(phrases as Record<string, string[]>)) {
          list.forEach((phrase, k) => {
            for (const [, id] of phrase.matchAll(/@([a-z0-9-]+)/g)) {
              if (!termIds.has(id!))
                issue('standards', `/${i}/clauses/${j}/conditions/${kind}/${locale}/${k}`, `names unknown term "@${id}"`);
            }
          });
        }
      }
    });
  });

  pack.tasks.forEach((task, i) => {
    task.roles.forEach((role, j) => {
      if (!roles.has(role)) issue('tasks', `/${i}/roles/${j}`, `names unknown role "${role}"`);
    });
    task.prerequisites.forEach((code, j) => {
      if (code === task.taskCode) issue('tasks', `/${i}/prerequisites/${j}`, 'a task cannot be its own prerequisite');
      else if (!taskCodes.has(code)) issue('tasks', `/${i}/prerequisites/${j}`, `names unknown task "${code}"`);
    });
    task.standards.forEach((ref, j) => {
      if (!blockVersions.has(ref)) issue('tasks', `/${i}/standards/${j}`, `cites unknown standards block version "${ref}"`);
    });
  });
  checkPrerequisiteCycles(pack, issue);
  checkPolicies(pack, issue);

  duplicateVersions(
    pack.splitTemplates.map((t) => ({ scope: '', version: t.version })),
    (i, earlier) => issue('splitTemplates', `/${i}/version`, `duplicates version ${spelled(earlier, pack.splitTemplates[i]!.version)}`),
  );
  exactlyOneCurrent(pack.splitTemplates, (message) => issue('splitTemplates', '', message));
  pack.splitTemplates.forEach((template, i) => {
    duplicates(
      template.tiers.map((t) => t.tierId),
      (j, id) => issue('splitTemplates', `/${i}/tiers/${j}/tierId`, `duplicates tierId "${id}"`),
    );
    const firstPercentage = template.tiers.findIndex((t) => t.kind === 'percentage');
    template.tiers.forEach((tier, j) => {
      if (tier.kind === 'fixed' && firstPercentage !== -1 && j > firstPercentage) {
        issue('splitTemplates', `/${i}/tiers/${j}/kind`, 'fixed tiers must come before percentage tiers');
      }
    });
    template.participantRoles.forEach((role, j) => {
      if (!roles.has(role)) issue('splitTemplates', `/${i}/participantRoles/${j}`, `names unknown role "${role}"`);
    });
    template.standards.forEach((ref, j) => {
      if (!blockVersions.has(ref)) issue('splitTemplates', `/${i}/standards/${j}`, `cites unknown standards block version "${ref}"`);
    });
  });
  return issues;
}

function checkStandards(pack: ContentPack, issue: Issue): void {
  duplicateVersions(
    pack.standards.map((b) => ({ scope: b.sectionId, version: b.version })),
    (i, earlier) => {
      const block = pack.standards[i]!;
      issue('standards', `/${i}/version`, `duplicates block version ${spelled(`${block.sectionId}@${earlier}`, block.version, earlier)}`);
    },
  );
  const bySection = new Map<string, { index: number; version: string; status: string; effectiveFrom: string }[]>();
  pack.standards.forEach((block, index) => {
    const versions = bySection.get(block.sectionId) ?? [];
    versions.push({ index, version: block.version, status: block.status, effectiveFrom: block.effectiveFrom });
    bySection.set(block.sectionId, versions);
    duplicates(
      block.clauses.map((c) => c.clauseId),
      (j, id) => issue('standards', `/${index}/clauses/${j}/clauseId`, `duplicates clauseId "${id}"`),
    );
  });
  pack.standards.forEach((block, index) => {
    if (block.supersedes === undefined) return;
    const target = bySection.get(block.sectionId)?.find((v) => v.version === block.supersedes);
    if (!target) issue('standards', `/${index}/supersedes`, `names unknown version "${block.supersedes}" of ${block.sectionId}`);
    else if (compareVersions(block.supersedes, block.version) >= 0) {
      issue('standards', `/${index}/supersedes`, `must name an older version than ${block.version}`);
    }
  });
  for (const [sectionId, versions] of bySection) {
    exactlyOneCurrent(versions, (message) => issue('standards', `/${versions[0]!.index}/status`, `${sectionId}: ${message}`));
    const ordered = [...versions].sort((a, b) => compareVersions(a.version, b.version));
    ordered.forEach((entry, i) => {
      const previous = ordered[i - 1];
      if (previous && entry.effectiveFrom <= previous.effectiveFrom) {
        issue('standards', `/${entry.index}/effectiveFrom`, `must be later than version ${previous.version}'s (${previous.effectiveFrom})`);
      }
    });
    const current = ordered.find((v) => v.status === 'current');
    const latest = ordered[ordered.length - 1];
    if (current && latest && current !== latest) {
      issue('standards', `/${current.index}/status`, `${sectionId}: the current version must be the latest (${latest.version})`);
    }
  }
}

function checkPolicies(pack: ContentPack, issue: Issue): void {
  duplicates(
    pack.policies.map((p) => p.policyId),
    (i, id) => issue('policies', `/${i}/policyId`, `duplicates policyId "${id}"`),
  );
  pack.policies.forEach((policy, i) => {
    duplicates(
      policy.versions.map((v) => v.version),
      (j, v) => issue('policies', `/${i}/versions/${j}/version`, `duplicates version "${v}"`),
    );
    policy.versions.forEach((entry, j) => {
      const at = `/${i}/versions/${j}`;
      const expected = `${policy.policyId}@${entry.version}`;
      if (entry.citation !== expected) issue('policies', `${at}/citation`, `must be "${expected}"`);
      if (entry.effectiveTo !== undefined && entry.effectiveTo < entry.effectiveFrom) {
        issue('policies', `${at}/effectiveTo`, 'must not be before effectiveFrom');
      }
      const isLast = j === policy.versions.length - 1;
      if (isLast && entry.effectiveTo !== undefined)
        issue('policies', `${at}/effectiveTo`, 'the last version is open-ended: remove effectiveTo');
      if (!isLast && entry.effectiveTo === undefined) issue('policies', `${at}/effectiveTo`, 'is required on every version but the last');
      const previous = policy.versions[j - 1];
      if (!previous) return;
      if (compareVersions(previous.version, entry.version) >= 0)
        issue('policies', `${at}/version`, 'versions must be listed in ascending order');
      if (previous.effectiveTo !== undefined && entry.effectiveFrom !== nextDay(previous.effectiveTo)) {
        issue('policies', `${at}/effectiveFrom`, `must be ${nextDay(previous.effectiveTo)}, the day after the previous version ends`);
      }
    });
  });
}

function checkPrerequisiteCycles(pack: ContentPack, issue: Issue): void {
  const prerequisites = new Map(pack.tasks.map((t) => [t.taskCode, t.prerequisites]));
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const visit = (code: string, trail: string[]): void => {
    if (state.get(code) === 'done') return;
    if (state.get(code) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(code)), code];
      const index = pack.tasks.findIndex((t) => t.taskCode === code);
      if (!reported.has(code)) issue('tasks', `/${index}/prerequisites`, `prerequisites form a cycle: ${cycle.join(' -> ')}`);
      reported.add(code);
      return;
    }
    state.set(code, 'visiting');
    for (const next of prerequisites.get(code) ?? []) if (prerequisites.has(next)) visit(next, [...trail, code]);
    state.set(code, 'done');
  };
  for (const task of pack.tasks) visit(task.taskCode, []);
}

function exactlyOneCurrent(entries: { status: string }[], report: (message: string) => void): void {
  const current = entries.filter((e) => e.status === 'current').length;
  if (current !== 1) report(`exactly one version must be "current", found ${current}`);
}

function duplicates(ids: string[], report: (index: number, id: string) => void): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) report(index, id);
    seen.add(id);
  });
}

/**
 * Reports each version naming the number an earlier version of its scope names, however it is spelled: 1.0 and
 * 1.00 are one number, which the registry could not order (compareVersions), so a pack may not hold both.
 */
function duplicateVersions(versions: { scope: string; version: string }[], report: (index: number, earlier: string) => void): void {
  const seen = new Map<string, string>();
  versions.forEach(({ scope, version }, index) => {
    const key = `${scope}@${version.split('.').map(Number).join('.')}`;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, version);
    else report(index, earlier);
  });
}

/** `"1.0"`, or `"1.0" as "1.00"` when the duplicate spells it otherwise. */
function spelled(earlierId: string, version: string, earlier = earlierId): string {
  return version === earlier ? `"${earlierId}"` : `"${earlierId}" as "${version}"`;
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}
