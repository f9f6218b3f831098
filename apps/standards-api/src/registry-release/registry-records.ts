// A release's records as the API serves them, made from the records as the pack gives them (and the database
// stores them). Each representation is made from these when a request first asks for it, so the order of the
// properties here is the order of the bytes served: it must not change (ETags).
import {
  compareVersions,
  type BrandSnapshotDto,
  type PolicyDto,
  type RoleDto,
  type SplitTemplateDto,
  type StandardBlockDto,
  type StandardSummaryDto,
  type TaskSpecDto,
  type TermDto,
} from '@stdreg/contracts';
import {
  type BrandSnapshot,
  type PolicyVersion,
  type Role,
  type SplitTemplate,
  type StandardBlockVersion,
  type TaskSpec,
  type Term,
} from '@stdreg/registry-content';

/** A policy version's place among its policy's versions: every policy record lists them all. */
export interface PolicyVersionRef {
  version: string;
  effectiveFrom: string;
  effectiveTo: string | null;
}

/** One version of a block; `versions` are every version of its section in order. */
export function standardBlockDto(block: StandardBlockVersion, versions: string[]): StandardBlockDto {
  const { sectionId } = block;
  return {
    sectionId,
    version: block.version,
    status: block.status,
    effectiveFrom: block.effectiveFrom,
    supersedes: block.supersedes ?? null,
    supersededBy: versions[versions.indexOf(block.version) + 1] ?? null,
    versions,
    title: block.title,
    summary: block.summary,
    clauses: block.clauses.map((c) => ({ clauseId: c.clauseId, text: c.text })),
    tags: block.tags,
    source: { publisher: block.source.publisher, edition: block.source.edition, uri: block.source.uri, sha256: block.source.sha256 },
    citation: `${sectionId}@${block.version}`,
  };
}

/** A section in the list of standards: its current version's heading. */
export function standardSummaryDto(current: StandardBlockVersion, versions: string[]): StandardSummaryDto {
  return {
    sectionId: current.sectionId,
    version: current.version,
    versions,
    effectiveFrom: current.effectiveFrom,
    title: current.title,
    summary: current.summary,
    tags: current.tags,
  };
}

export function termDto(t: Term): TermDto {
  return {
    termId: t.termId,
    term: t.term,
    definition: t.definition,
    synonyms: { en: t.synonyms.en, 'zh-Hans': t.synonyms['zh-Hans'] },
    designations: { en: t.designations?.en ?? [], 'zh-Hans': t.designations?.['zh-Hans'] ?? [] },
    related: t.related ?? [],
    standards: t.standards ?? [],
  };
}

export function taskSpecDto(t: TaskSpec): TaskSpecDto {
  return {
    taskCode: t.taskCode,
    title: t.title,
    description: t.description,
    roles: t.roles,
    prerequisites: t.prerequisites,
    inputs: t.inputs.map((io) => ({ name: io.name, description: io.description })),
    outputs: t.outputs.map((io) => ({ name: io.name, description: io.description })),
    acceptanceCriteria: t.acceptanceCriteria,
    standards: t.standards,
  };
}

export function roleDto(r: Role): RoleDto {
  return {
    role: r.role,
    kind: r.kind,
    name: r.name,
    description: r.description,
    responsibilities: { en: r.responsibilities.en, 'zh-Hans': r.responsibilities['zh-Hans'] },
    canApprove: r.canApprove,
  };
}

/** One version of a policy; `versions` are every version of the policy in order. */
export function policyDto(policyId: string, v: PolicyVersion, versions: PolicyVersionRef[]): PolicyDto {
  return {
    policyId,
    version: v.version,
    effectiveFrom: v.effectiveFrom,
    effectiveTo: v.effectiveTo ?? null,
    title: v.title,
    summary: v.summary,
    body: v.body,
    citation: v.citation,
    versions,
  };
}

export function brandSnapshotDto(brand: BrandSnapshot): BrandSnapshotDto {
  return {
    snapshotId: brand.snapshotId,
    pinnedAt: brand.pinnedAt,
    name: brand.name,
    tagline: brand.tagline,
    voice: brand.voice,
    colors: brand.colors,
    typography: { latin: brand.typography.latin, han: brand.typography.han },
    logo: { uri: brand.logo.uri, sha256: brand.logo.sha256 },
  };
}

/** Every split template in version order, each listing every version. */
export function splitTemplateDtos(templates: SplitTemplate[]): SplitTemplateDto[] {
  const versions = templates.map((t) => t.version).sort(compareVersions);
  return [...templates]
    .sort((a, b) => compareVersions(a.version, b.version))
    .map((t) => ({
      version: t.version,
      status: t.status,
      name: t.name,
      description: t.description,
      participantRoles: t.participantRoles,
      tiers: t.tiers.map((tier) => ({
        tierId: tier.tierId,
        kind: tier.kind,
        label: tier.label,
        capBasisPoints: tier.capBasisPoints ?? null,
      })),
      standards: t.standards,
      versions,
    }));
}

export function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
