import type { Localized } from '@stdreg/contracts';

export type LocalizedList = Localized<string[]>;

export interface PackMeta {
  formatVersion: 1;
  packVersion: string;
  title: Localized;
  description: Localized;
  publisher: string;
  locales: ['en', 'zh-Hans'];
  citationFormat: string;
  policyCitationFormat: string;
}

export interface StandardBlockVersion {
  sectionId: string;
  version: string;
  status: 'current' | 'superseded';
  effectiveFrom: string;
  supersedes?: string;
  title: Localized;
  summary: Localized;
  clauses: { clauseId: string; text: Localized; conditions?: ClauseConditions }[];
  tags: string[];
  source: { publisher: string; edition: string; uri: string; sha256: string };
}

/**
 * What a practice says when it meets a clause (`requires`) and when it states the opposite (`contradictedBy`),
 * as phrases in both languages: cues separated by spaces, all found in one sentence; alternatives of a cue
 * separated by `|`, `_` a space inside one; a Latin alternative matches at the start of a word (of three
 * letters or fewer: as a whole word), a Chinese one anywhere.
 */
export interface ClauseConditions {
  requires: LocalizedList;
  contradictedBy: LocalizedList;
}

export interface Term {
  termId: string;
  term: Localized;
  definition: Localized;
  synonyms: LocalizedList;
  /** More names of the term in each language: abbreviations, everyday phrases, the synonyms practitioners use. */
  designations?: LocalizedList;
  related?: string[];
  standards?: string[];
}

export interface Role {
  role: string;
  kind: 'stakeholder' | 'operational';
  name: Localized;
  description: Localized;
  responsibilities: LocalizedList;
  canApprove: boolean;
}

export interface TaskSpec {
  taskCode: string;
  title: Localized;
  description: Localized;
  roles: string[];
  prerequisites: string[];
  inputs: { name: string; description: Localized }[];
  outputs: { name: string; description: Localized }[];
  acceptanceCriteria: Localized[];
  standards: string[];
}

export interface PolicyVersion {
  version: string;
  effectiveFrom: string;
  effectiveTo?: string;
  title: Localized;
  summary: Localized;
  body: Localized;
  citation: string;
}

export interface Policy {
  policyId: string;
  versions: PolicyVersion[];
}

export interface BrandSnapshot {
  snapshotId: string;
  pinnedAt: string;
  name: Localized;
  tagline: Localized;
  voice: Localized;
  colors: Record<string, string>;
  typography: { latin: string; han: string };
  logo: { uri: string; sha256: string };
}

export interface SplitTemplate {
  version: string;
  status: 'current' | 'superseded';
  name: Localized;
  description: Localized;
  participantRoles: string[];
  tiers: { tierId: string; kind: 'fixed' | 'percentage'; label: Localized; capBasisPoints?: number }[];
  standards: string[];
}

/** A whole, validated content pack. */
export interface ContentPack {
  pack: PackMeta;
  standards: StandardBlockVersion[];
  terms: Term[];
  roles: Role[];
  tasks: TaskSpec[];
  policies: Policy[];
  brand: BrandSnapshot;
  splitTemplates: SplitTemplate[];
}

/** One precise problem in a content pack: which file, where in it (JSON Pointer), what is wrong. */
export interface PackIssue {
  file: string;
  path: string;
  message: string;
}

export const PACK_FILES = {
  pack: 'pack.json',
  standards: 'standards.json',
  terms: 'terms.json',
  roles: 'roles.json',
  tasks: 'tasks.json',
  policies: 'policies.json',
  brand: 'brand.json',
  splitTemplates: 'split-templates.json',
} as const satisfies Record<keyof ContentPack, string>;
