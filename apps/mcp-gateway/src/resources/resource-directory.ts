// resources/list (paginated), resources/templates/list and completion of template variables.
import { Injectable } from '@nestjs/common';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { RegistryCache } from '../upstream/registry-cache';
import type { UpstreamResult } from '../upstream/upstream-result';
import { RESOURCE_TEMPLATES, uriOf, uriTemplateOf } from './resource-catalogue';

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
   * one), then each template's resources in template order; the cursor is the offset of the next page.
   * A page is a slice of the release's list, built once per release (see `index`).
   */
  async list(cursor: string | undefined): Promise<ResourcePage> {
    const offset = cursor === undefined ? 0 : decodeOffset(cursor);
    if (offset === null) return { ok: false, reason: 'invalid_cursor', message: 'Invalid cursor: pass nextCursor from a previous page.' };
    const index = await this.index();
    if (!index.ok) return { ok: false, reason: 'unavailable', message: 'The registry (standards-api) is unavailable; retry later.' };
    const all = index.body.resources;
    const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
    const next = offset + RESOURCE_PAGE_SIZE;
    return { ok: true, resources: page, ...(next < all.length ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}) };
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
      const publicTemplates = RESOURCE_TEMPLATES.filter((template) => template.action === null);
      const resources: Resource[] = publicTemplates
        .filter((template) => template.variable === null)
        .map((template) => ({
          uri: uriTemplateOf(template),
          name: template.name,
          title: template.title,
          description: template.description,
          mimeType: JSON_MIME,
        }));
      const completions = new Map<string, CompletionList>();
      for (const template of publicTemplates) {
        if (!template.listedFrom) continue;
        const values = await template.listedFrom(this.registry);
        if (values === null) return { ok: false, status: 503, message: 'The registry (standards-api) is unavailable; retry later.' };
        for (const { id, label } of values)
          resources.push({ uri: uriOf(template, id), name: `${template.name}:${id}`, title: label, mimeType: JSON_MIME });
        completions.set(template.kind, completionList(values.map((value) => value.id)));
      }
      return { ok: true, status: 200, body: { resources, completions } };
    });
  }
}

interface DirectoryIndex {
  resources: Resource[];
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

/** The first index whose value satisfies `reached` (false for a prefix of the list, true after), or the length. */
function firstIndex(sorted: string[], reached: (value: string) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (reached(sorted[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function decodeOffset(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^[0-9]{1,6}$/.test(text) ? Number(text) : null;
}
