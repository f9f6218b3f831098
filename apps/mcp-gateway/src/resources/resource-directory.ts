// resources/list (paginated), resources/templates/list and completion of template variables.
import { Injectable } from '@nestjs/common';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { RegistryCache } from '../upstream/registry-cache';
import { RESOURCE_TEMPLATES, uriOf, uriTemplateOf, type ListedResource, type ResourceTemplateDefinition } from './resource-catalogue';

export const RESOURCE_PAGE_SIZE = 50;
const MAX_COMPLETIONS = 100;
const JSON_MIME = 'application/json';

export type ResourcePage = { ok: true; resources: Resource[]; nextCursor?: string } | { ok: false; message: string };

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
   */
  async list(cursor: string | undefined): Promise<ResourcePage> {
    const offset = cursor === undefined ? 0 : decodeOffset(cursor);
    if (offset === null) return { ok: false, message: 'Invalid cursor: pass nextCursor from a previous page.' };
    const publicTemplates = RESOURCE_TEMPLATES.filter((template) => template.action === null);
    const all: Resource[] = publicTemplates
      .filter((template) => template.variable === null)
      .map((template) => ({
        uri: uriTemplateOf(template),
        name: template.name,
        title: template.title,
        description: template.description,
        mimeType: JSON_MIME,
      }));
    for (const template of publicTemplates.filter((candidate) => candidate.variable !== null)) {
      const values = await this.values(template);
      if (values === null) return { ok: false, message: 'The registry (standards-api) is unavailable; retry later.' };
      for (const { id, label } of values)
        all.push({ uri: uriOf(template, id), name: `${template.name}:${id}`, title: label, mimeType: JSON_MIME });
    }
    const page = all.slice(offset, offset + RESOURCE_PAGE_SIZE);
    const next = offset + RESOURCE_PAGE_SIZE;
    return { ok: true, resources: page, ...(next < all.length ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}) };
  }

  /** Values of a template's variable starting with `prefix` (case-insensitive); empty for organization templates. */
  async complete(uriTemplate: string, argument: string, prefix: string): Promise<{ values: string[]; total: number; hasMore: boolean }> {
    const template = RESOURCE_TEMPLATES.find((candidate) => uriTemplateOf(candidate) === uriTemplate && candidate.variable === argument);
    const values = template ? ((await this.values(template)) ?? []).map((value) => value.id) : [];
    const matching = values.filter((value) => value.toLowerCase().startsWith(prefix.toLowerCase()));
    return { values: matching.slice(0, MAX_COMPLETIONS), total: matching.length, hasMore: matching.length > MAX_COMPLETIONS };
  }

  private async values(template: ResourceTemplateDefinition): Promise<ListedResource[] | null> {
    return template.listedFrom ? template.listedFrom(this.registry) : [];
  }
}

function decodeOffset(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^[0-9]{1,6}$/.test(text) ? Number(text) : null;
}
