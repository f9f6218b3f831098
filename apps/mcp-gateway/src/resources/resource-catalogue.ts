// The twelve resource templates of SPEC.md part B under stdreg://, and where each one is read from; beside
// them, the glossary in pages (an addition: SPEC.md's glossary/current holds every term, tens of MB at scale).
import { compareSectionIds, compareVersions, MAX_PAGE_LIMIT, VERSION_PATTERN } from '@stdreg/contracts';
import type { OrganizationReadAction } from '../callers/gateway-authorization';
import type { RegistryCache, RegistryCollections } from '../upstream/registry-cache';

export const RESOURCE_SCHEME = 'stdreg';
/** Terms in a page of the glossary (standards-api's largest page of terms); the first page's cursor. */
export const GLOSSARY_PAGE_SIZE = MAX_PAGE_LIMIT;
export const FIRST_GLOSSARY_PAGE = 'first';

/** One concrete resource of a template: the value of its variable, and a label. */
export interface ListedResource {
  id: string;
  label: string;
}

export interface ResourceTemplateDefinition {
  /** stdreg://<kind>/<variable> */
  kind: string;
  name: string;
  title: string;
  description: string;
  /** The template variable, or null for a singleton (`current`). */
  variable: string | null;
  /** null: public registry data; otherwise the read action identity must allow in the organization. */
  action: OrganizationReadAction | null;
  /** The concrete resources (and the completions) of this template, read from a registry list; null when it cannot be read. */
  listedFrom?: (registry: RegistryCache) => Promise<ListedResource[] | null>;
  /** The order of the registry list the resources come from, and the values it may hold; by code units if absent. */
  order?: { compare: (a: string, b: string) => number; pattern?: RegExp };
}

/** Lists a template's resources from one registry collection, each item's type known to its id and label. */
const item =
  <K extends keyof RegistryCollections>(
    collection: K,
    id: (value: RegistryCollections[K]) => string,
    label: (value: RegistryCollections[K]) => string,
  ) =>
  async (registry: RegistryCache): Promise<ListedResource[] | null> => {
    const items = await registry.all(collection);
    return items.ok ? items.body.map((value) => ({ id: id(value), label: label(value) })) : null;
  };

export const RESOURCE_TEMPLATES: readonly ResourceTemplateDefinition[] = [
  {
    kind: 'manifest',
    name: 'manifest',
    title: 'Registry manifest',
    description: 'Capabilities, counts, provenance and content digest.',
    variable: null,
    action: null,
  },
  { kind: 'glossary', name: 'glossary', title: 'Glossary', description: 'Every controlled bilingual term.', variable: null, action: null },
  {
    kind: 'glossary-page',
    name: 'glossary-page',
    title: 'Glossary page',
    description: `The glossary in pages of ${GLOSSARY_PAGE_SIZE} terms in term id order: \`${FIRST_GLOSSARY_PAGE}\`, then the page each one names as nextPage (null after the last).`,
    variable: 'cursor',
    action: null,
    listedFrom: () => Promise.resolve([{ id: FIRST_GLOSSARY_PAGE, label: 'Glossary, first page' }]),
  },
  {
    kind: 'standards',
    name: 'standard',
    title: 'Standards block',
    description: 'One bilingual standards block (current version) with its canonical source.',
    variable: 'sectionId',
    action: null,
    listedFrom: item(
      'standards',
      (s) => s.sectionId,
      (s) => `${s.sectionId} ${s.title.en}`,
    ),
    order: { compare: compareSectionIds },
  },
  {
    kind: 'taskspec',
    name: 'taskspec',
    title: 'Task record',
    description: 'One standard task record (TaskSpec).',
    variable: 'taskCode',
    action: null,
    listedFrom: item(
      'tasks',
      (t) => t.taskCode,
      (t) => `${t.taskCode} ${t.title.en}`,
    ),
  },
  {
    kind: 'roles',
    name: 'role',
    title: 'Role',
    description: 'One stakeholder or operational role.',
    variable: 'role',
    action: null,
    listedFrom: item(
      'roles',
      (r) => r.role,
      (r) => r.name.en,
    ),
  },
  {
    kind: 'policy',
    name: 'policy',
    title: 'Policy',
    description: 'One policy in force, with its versioned citation.',
    variable: 'policyId',
    action: null,
    listedFrom: item(
      'policies',
      (p) => p.policyId,
      (p) => `${p.citation} ${p.title.en}`,
    ),
  },
  { kind: 'brand', name: 'brand', title: 'Brand snapshot', description: 'The pinned brand snapshot.', variable: null, action: null },
  {
    kind: 'split-templates',
    name: 'split-template',
    title: 'Split template',
    description: 'One split template version.',
    variable: 'version',
    action: null,
    listedFrom: item(
      'split-templates',
      (t) => t.version,
      (t) => `${t.name.en} ${t.version}`,
    ),
    order: { compare: compareVersions, pattern: VERSION_PATTERN },
  },
  {
    kind: 'organizations',
    name: 'organization',
    title: 'Organization',
    description: 'An organization (key allowed for it).',
    variable: 'id',
    action: 'organization:read',
  },
  {
    kind: 'split-projects',
    name: 'split-project',
    title: 'Split project',
    description: 'A draft split project of the organization.',
    variable: 'id',
    action: 'split-project:read',
  },
  {
    kind: 'settlement-runs',
    name: 'settlement-run',
    title: 'Settlement run',
    description: 'A posted settlement run (read only).',
    variable: 'id',
    action: 'settlement-run:read',
  },
  {
    kind: 'equity-ledgers',
    name: 'equity-ledger',
    title: 'Equity ledger',
    description: "A legal entity's equity ledger (read only).",
    variable: 'legalEntityId',
    action: 'equity-ledger:read',
  },
];

export function uriTemplateOf(template: ResourceTemplateDefinition): string {
  return `${RESOURCE_SCHEME}://${template.kind}/${template.variable ? `{${template.variable}}` : 'current'}`;
}

/** Whether `uri` is one of the catalogue's URI templates or singleton URIs, as the lists give them. */
export function isCatalogueUri(uri: string): boolean {
  return RESOURCE_TEMPLATES.some((template) => uriTemplateOf(template) === uri);
}

export function uriOf(template: ResourceTemplateDefinition, value: string): string {
  return `${RESOURCE_SCHEME}://${template.kind}/${encodeURIComponent(value)}`;
}

export type ParsedUri = { template: ResourceTemplateDefinition; value: string | null };

/** The template a URI belongs to and its variable's value; null for anything else. */
export function parseResourceUri(uri: string): ParsedUri | null {
  const match = new RegExp(`^${RESOURCE_SCHEME}://([a-z-]+)/([^/?#]+)$`).exec(uri);
  if (!match) return null;
  const template = RESOURCE_TEMPLATES.find((candidate) => candidate.kind === match[1]);
  if (!template) return null;
  let value: string;
  try {
    value = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  if (template.variable === null) return value === 'current' ? { template, value: null } : null;
  // `.` and `..` (or `%2E`) would stay dot segments in the upstream path, which the URL resolves away: `/standards/.`
  // is the list of standards, not a block.
  if (value === '.' || value === '..') return null;
  return value.length > 0 && value.length <= 200 ? { template, value } : null;
}
