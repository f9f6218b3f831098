// resources/list (paginated), resources/templates/list and completion of template variables.
import { Injectable } from '@nestjs/common';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { RegistryCache } from '../upstream/registry-cache';
import type { UpstreamResult } from '../upstream/upstream-result';
import { decodeCursor, encodeCursor } from '@stdreg/server-kit';
import { parseResourceUri, RESOURCE_TEMPLATES, uriOf, uriTemplateOf } from './resource-catalogue';

export const RESOURCE_PAGE_SIZE = 50;
const MAX_COMPLETIONS = 100;
const JSON_MIME = 'application/json';

/** A page, or why there is none: a cursor this directory did not give (the client's mistake), or the registry away. */
export type ResourcePage =
  { ok: true; resources: Resource[]; nextCursor?: string } | { ok: false; reason: 'invalid_cursor' | 'unavailable'; message: string };

@Injectable()
export class ResourceDirectory {
  constructor(private readonly registry: RegistryCache) {}

  templates(): ResourceTemplate[] {
    return RESOURCE_TEMPLATES.filter((template) => template.variable !== null).map((template) => ({
      uriTemplate: uriTemplateOf(template),
      name: template.name,
      title: template.title,
      description: template.action ? `${template.description} Needs a key allowed in the organization.` : template.description,
      mimeType: JSON_MIME,
    }));
  }

  /**
   * Every public registry resource: the singletons first (a client that reads one page must not miss
   * one), then each template's resources in template order; the cursor names the last resource served,
   * so a page of a newer release starts after it (or where it was, if the release removed it) and an
   * item listed in both releases is neither skipped nor repeated. A page is a slice of the release's
   * list, built once per release (see `index`).
   */
  async list(cursor: string | undefined): Promise<ResourcePage> {
    const after = cursor === undefined ? undefined : cursorPlace(cursor);
    if (after === null) return { ok: false, reason: 'invalid_cursor', message: 'Invalid cursor: pass nextCursor from a previous page.' };
    const index = await this.index();
    if (!index.ok) return { ok: false, reason: 'unavailable', message: 'The registry (standards-api) is unavailable; retry later.' };
    const all = index.body.resources;
    const offset = after === undefined ? 0 : indexAfter(index.body, after);
    const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
    const next = offset + RESOURCE_PAGE_SIZE;
    return { ok: true, resources: page, ...(next < all.length ? { nextCursor: encodeCursor(RESOURCE_LIST, page.at(-1)!.uri) } : {}) };
  }

  /**
   * Values of a template's variable starting with `prefix` (case-insensitive), in the registry's list order
   * (RUL-2 before RUL-10, version 1.9 before 1.10), at most MAX_COMPLETIONS (the MCP cap) with the count of
   * all; empty for organization templates.
   */
  async complete(uriTemplate: string, argument: string, prefix: string): Promise<{ values: string[]; total: number; hasMore: boolean }> {
    const template = RESOURCE_TEMPLATES.find((candidate) => uriTemplateOf(candidate) === uriTemplate && candidate.variable === argument);
    if (!template?.listedFrom) return { values: [], total: 0, hasMore: false };
    const index = await this.index();
    const completions = index.ok ? index.body.completions.get(template.kind) : undefined;
    if (!completions) return { values: [], total: 0, hasMore: false };
    const folded = prefix.toLowerCase();
    // The folded values that start with `folded` are one run of the sorted list: its two ends by binary search.
    const from = firstIndex(completions.folded, (value) => value >= folded);
    const to = firstIndex(completions.folded, (value) => value.slice(0, folded.length) > folded);
    const total = Math.max(0, to - from);
    const places = completions.listedAt.slice(from, Math.max(from, to)).sort().subarray(0, MAX_COMPLETIONS);
    return { values: Array.from(places, (place) => completions.listed[place]!), total, hasMore: total > MAX_COMPLETIONS };
  }

  /** The release's resource list and completion lists, built from the registry's lists once per release. */
  private index(): Promise<UpstreamResult<DirectoryIndex>> {
    return this.registry.perRelease('resource-directory', async () => {
      const resources: Resource[] = [];
      const places: ResourcePlace[] = [];
      const completions = new Map<string, CompletionList>();
      for (const [group, template] of LIST_ORDER.entries()) {
        if (!template.listedFrom) {
          const { name, title, description } = template;
          resources.push({ uri: uriTemplateOf(template), name, title, description, mimeType: JSON_MIME });
          places.push({ group, id: '' });
          continue;
        }
        const values = await template.listedFrom(this.registry);
        if (values === null) return { ok: false, status: 503, message: 'The registry (standards-api) is unavailable; retry later.' };
        for (const { id, label } of values) {
          resources.push({ uri: uriOf(template, id), name: `${template.name}:${id}`, title: label, mimeType: JSON_MIME });
          places.push({ group, id });
        }
        completions.set(template.kind, completionList(values.map((value) => value.id)));
      }
      const byUri = new Map(resources.map((resource, at) => [resource.uri, at]));
      return { ok: true, status: 200, body: { resources, places, byUri, completions } };
    });
  }
}

interface DirectoryIndex {
  resources: Resource[];
  /** Each resource's place in the list order, beside it. */
  places: ResourcePlace[];
  /** Each resource's position, by URI. */
  byUri: Map<string, number>;
  /** By template kind. */
  completions: Map<string, CompletionList>;
}

/**
 * A template's values as the registry lists them, and their lower-cased forms sorted (then by the value as
 * given), each beside its value's place in the list: the values with a prefix are one run of `folded`.
 */
interface CompletionList {
  listed: string[];
  folded: string[];
  listedAt: Int32Array;
}

function completionList(listed: string[]): CompletionList {
  const sorted = listed
    .map((value, place) => ({ value, place, folded: value.toLowerCase() }))
    .sort((a, b) => compare(a.folded, b.folded) || compare(a.value, b.value));
  return { listed, folded: sorted.map((entry) => entry.folded), listedAt: Int32Array.from(sorted, (entry) => entry.place) };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const RESOURCE_LIST = 'resources';
const PUBLIC_TEMPLATES = RESOURCE_TEMPLATES.filter((template) => template.action === null);
/** The public templates in the order their resources are listed: the singletons, then those listed from the registry. */
const LIST_ORDER = [
  ...PUBLIC_TEMPLATES.filter((template) => template.variable === null),
  ...PUBLIC_TEMPLATES.filter((template) => template.listedFrom !== undefined),
];

/** Where a resource sorts in the list: its template's group, then its variable's value in that template's order. */
interface ResourcePlace {
  group: number;
  id: string;
}

/** The place a cursor names, or null when it is no cursor of this list (not base64url of the list and a listed template's URI). */
function cursorPlace(cursor: string): ResourcePlace | null {
  let uri: string;
  try {
    uri = decodeCursor(RESOURCE_LIST, cursor);
  } catch {
    return null;
  }
  const parsed = parseResourceUri(uri);
  const group = parsed ? LIST_ORDER.indexOf(parsed.template) : -1;
  if (!parsed || group === -1) return null;
  const id = parsed.value ?? '';
  const pattern = parsed.template.order?.pattern;
  return pattern && !pattern.test(id) ? null : { group, id };
}

function comparePlaces(a: ResourcePlace, b: ResourcePlace): number {
  return a.group - b.group || (LIST_ORDER[a.group]!.order?.compare ?? compare)(a.id, b.id);
}

/** The position after the resource a cursor names: after it if the release lists it, else where it would be. */
function indexAfter(index: DirectoryIndex, after: ResourcePlace): number {
  const uri = resourceUri(after);
  const at = index.byUri.get(uri);
  if (at !== undefined) return at + 1;
  return firstIndex(index.places, (place) => comparePlaces(place, after) > 0);
}

function resourceUri(place: ResourcePlace): string {
  const template = LIST_ORDER[place.group]!;
  return template.variable === null ? uriTemplateOf(template) : uriOf(template, place.id);
}

/** The first index whose value satisfies `reached` (false for a prefix of the list, true after), or the length. */
function firstIndex<T>(sorted: readonly T[], reached: (value: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (reached(sorted[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
