import type {
  BrandSnapshotDto,
  ManifestDto,
  PolicyDto,
  RoleDto,
  SplitTemplateDto,
  StandardBlockDto,
  StandardSummaryDto,
  TaskSpecDto,
  TermDto,
} from '@stdreg/contracts';
import { compareVersions, type ContentPack } from '@stdreg/registry-content';
import type { StoredRegistry } from '../registry-storage/registry.repository';
import type { ClauseConditions } from '../search-index/clause-conditions';
import { RegistrySearchIndex } from '../search-index/registry-search-index';

export const API_VERSION = '2.0.0';
const CAPABILITIES = [
  'standards',
  'standard-versions',
  'terms',
  'term-search',
  'tasks',
  'roles',
  'policies',
  'policy-versions-at-date',
  'brand',
  'split-templates',
  'language-negotiation',
  'etag',
  'cursor-pagination',
];

/** The registry content of one release, shaped as the API serves it, built once per release. */
export class RegistrySnapshot {
  readonly sequence: string;
  readonly digest: string;
  readonly manifest: ManifestDto;
  readonly standards: StandardSummaryDto[];
  readonly terms: TermDto[];
  readonly tasks: TaskSpecDto[];
  readonly roles: RoleDto[];
  readonly brand: BrandSnapshotDto;
  readonly splitTemplates: SplitTemplateDto[];
  private readonly blockVersions = new Map<string, StandardBlockDto>();
  private readonly currentBlockVersion = new Map<string, string>();
  /** The release's full-text index: terms, clauses of the current standards, roles. */
  readonly search: RegistrySearchIndex;
  private readonly taskByCode: Map<string, TaskSpecDto>;
  private readonly roleByName: Map<string, RoleDto>;
  private readonly policyVersions = new Map<string, PolicyDto[]>();
  private readonly templateByVersion: Map<string, SplitTemplateDto>;

  constructor({ release, pack }: StoredRegistry) {
    this.sequence = release.sequence;
    this.digest = release.digest;
    // Each section's current version as the pack gives it (with its clauses' conditions), for the search index.
    const currentSources = new Map<string, ContentPack['standards'][number]>();
    this.standards = this.buildStandards(pack, currentSources);
    this.terms = [...pack.terms].sort(byKey((t) => t.termId)).map((t) => ({
      termId: t.termId,
      term: t.term,
      definition: t.definition,
      synonyms: { en: t.synonyms.en, 'zh-Hans': t.synonyms['zh-Hans'] },
      designations: { en: t.designations?.en ?? [], 'zh-Hans': t.designations?.['zh-Hans'] ?? [] },
      related: t.related ?? [],
      standards: t.standards ?? [],
    }));
    this.tasks = [...pack.tasks].sort(byKey((t) => t.taskCode)).map((t) => ({
      taskCode: t.taskCode,
      title: t.title,
      description: t.description,
      roles: t.roles,
      prerequisites: t.prerequisites,
      inputs: t.inputs.map((io) => ({ name: io.name, description: io.description })),
      outputs: t.outputs.map((io) => ({ name: io.name, description: io.description })),
      acceptanceCriteria: t.acceptanceCriteria,
      standards: t.standards,
    }));
    this.taskByCode = new Map(this.tasks.map((t) => [t.taskCode, t]));
    this.roles = [...pack.roles].sort(byKey((r) => r.role)).map((r) => ({
      role: r.role,
      kind: r.kind,
      name: r.name,
      description: r.description,
      responsibilities: { en: r.responsibilities.en, 'zh-Hans': r.responsibilities['zh-Hans'] },
      canApprove: r.canApprove,
    }));
    this.roleByName = new Map(this.roles.map((r) => [r.role, r]));
    this.buildPolicies(pack);
    const brand = pack.brand;
    this.brand = {
      snapshotId: brand.snapshotId,
      pinnedAt: brand.pinnedAt,
      name: brand.name,
      tagline: brand.tagline,
      voice: brand.voice,
      colors: brand.colors,
      typography: { latin: brand.typography.latin, han: brand.typography.han },
      logo: { uri: brand.logo.uri, sha256: brand.logo.sha256 },
    };
    const templateVersions = pack.splitTemplates.map((t) => t.version).sort(compareVersions);
    this.splitTemplates = [...pack.splitTemplates]
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
        versions: templateVersions,
      }));
    this.templateByVersion = new Map(this.splitTemplates.map((t) => [t.version, t]));
    this.search = new RegistrySearchIndex({
      terms: this.terms,
      standards: this.standards.map((summary) => {
        const block = this.standardBlock(summary.sectionId)!;
        const source = currentSources.get(block.sectionId)!;
        const conditions = new Map<string, ClauseConditions>();
        for (const clause of source.clauses) {
          if (!clause.conditions) continue;
          const { requires, contradictedBy } = clause.conditions;
          conditions.set(clause.clauseId, {
            requires: [...requires.en, ...requires['zh-Hans']],
            contradictedBy: [...contradictedBy.en, ...contradictedBy['zh-Hans']],
          });
        }
        return { block, conditions };
      }),
      roles: this.roles,
      tasks: this.tasks,
    });
    this.manifest = {
      apiVersion: API_VERSION,
      title: pack.pack.title,
      description: pack.pack.description,
      locales: [...pack.pack.locales],
      capabilities: CAPABILITIES,
      counts: {
        standards: this.standards.length,
        standardVersions: pack.standards.length,
        terms: pack.terms.length,
        tasks: pack.tasks.length,
        roles: pack.roles.length,
        policies: pack.policies.length,
        policyVersions: pack.policies.reduce((sum, p) => sum + p.versions.length, 0),
        splitTemplates: pack.splitTemplates.length,
      },
      provenance: {
        packVersion: release.packVersion,
        formatVersion: release.formatVersion,
        publisher: release.publisher,
        importedAt: release.importedAt.toISOString(),
      },
      citationFormat: pack.pack.citationFormat,
      policyCitationFormat: pack.pack.policyCitationFormat,
      digest: release.digest,
    };
  }

  standardBlock(sectionId: string, version?: string): StandardBlockDto | undefined {
    const resolved = version ?? this.currentBlockVersion.get(sectionId);
    return resolved === undefined ? undefined : this.blockVersions.get(`${sectionId}@${resolved}`);
  }

  hasSection(sectionId: string): boolean {
    return this.currentBlockVersion.has(sectionId);
  }

  task(taskCode: string): TaskSpecDto | undefined {
    return this.taskByCode.get(taskCode);
  }

  role(role: string): RoleDto | undefined {
    return this.roleByName.get(role);
  }

  policyVersionsOf(policyId: string): PolicyDto[] | undefined {
    return this.policyVersions.get(policyId);
  }

  /** The version of a policy in force on a date (YYYY-MM-DD). */
  policyInForce(policyId: string, date: string): PolicyDto | undefined {
    return this.policyVersions.get(policyId)?.find((v) => v.effectiveFrom <= date && (v.effectiveTo === null || date <= v.effectiveTo));
  }

  /** Each policy's version in force on a date, or its first version when none is in force yet. */
  policiesInForce(date: string): PolicyDto[] {
    return [...this.policyVersions.keys()].map((policyId) => this.policyInForce(policyId, date) ?? this.policyVersions.get(policyId)![0]!);
  }

  splitTemplate(version: string): SplitTemplateDto | undefined {
    return this.templateByVersion.get(version);
  }

  private buildStandards(pack: ContentPack, currentSources: Map<string, ContentPack['standards'][number]>): StandardSummaryDto[] {
    const bySection = new Map<string, ContentPack['standards']>();
    for (const block of pack.standards) {
      const versions = bySection.get(block.sectionId);
      if (versions) versions.push(block);
      else bySection.set(block.sectionId, [block]);
    }
    const summaries: StandardSummaryDto[] = [];
    for (const [sectionId, blocks] of [...bySection].sort(byKey(([id]) => id))) {
      blocks.sort((a, b) => compareVersions(a.version, b.version));
      const versions = blocks.map((b) => b.version);
      blocks.forEach((block, index) => {
        this.blockVersions.set(`${sectionId}@${block.version}`, {
          sectionId,
          version: block.version,
          status: block.status,
          effectiveFrom: block.effectiveFrom,
          supersedes: block.supersedes ?? null,
          supersededBy: blocks[index + 1]?.version ?? null,
          versions,
          title: block.title,
          summary: block.summary,
          clauses: block.clauses.map((c) => ({ clauseId: c.clauseId, text: c.text })),
          tags: block.tags,
          source: { publisher: block.source.publisher, edition: block.source.edition, uri: block.source.uri, sha256: block.source.sha256 },
          citation: `${sectionId}@${block.version}`,
        });
      });
      const current = blocks.find((b) => b.status === 'current') ?? blocks[blocks.length - 1]!;
      this.currentBlockVersion.set(sectionId, current.version);
      currentSources.set(sectionId, current);
      summaries.push({
        sectionId,
        version: current.version,
        versions,
        effectiveFrom: current.effectiveFrom,
        title: current.title,
        summary: current.summary,
        tags: current.tags,
      });
    }
    return summaries;
  }

  private buildPolicies(pack: ContentPack): void {
    for (const policy of [...pack.policies].sort(byKey((p) => p.policyId))) {
      const ordered = [...policy.versions].sort((a, b) => compareVersions(a.version, b.version));
      const refs = ordered.map((v) => ({ version: v.version, effectiveFrom: v.effectiveFrom, effectiveTo: v.effectiveTo ?? null }));
      const dtos = ordered.map((v) => ({
        policyId: policy.policyId,
        version: v.version,
        effectiveFrom: v.effectiveFrom,
        effectiveTo: v.effectiveTo ?? null,
        title: v.title,
        summary: v.summary,
        body: v.body,
        citation: v.citation,
        versions: refs,
      }));
      this.policyVersions.set(policy.policyId, dtos);
    }
  }
}

function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}
