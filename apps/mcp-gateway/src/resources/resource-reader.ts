// Reads one stdreg:// resource: registry data anonymously, organization data only when identity allows.
import { Injectable } from '@nestjs/common';
import type { DecisionSubjectDto, TermDto } from '@stdreg/contracts';
import { isUuid, JsonLogger } from '@stdreg/server-kit';
import { recordAgentAction } from '../agent-actions/agent-action';
import { GatewayAuthorization } from '../callers/gateway-authorization';
import type { McpCaller } from '../callers/caller';
import { IdentityClient } from '../upstream/identity.client';
import { RegistryCache } from '../upstream/registry-cache';
import { StandardsApiClient } from '../upstream/standards-api.client';
import type { UpstreamResult } from '../upstream/upstream-result';
import { FIRST_GLOSSARY_PAGE, GLOSSARY_PAGE_SIZE, RESOURCE_SCHEME, uriOf, type ParsedUri } from './resource-catalogue';

/** `json`: the resource's contents, serialized. */
export type ResourceRead = { ok: true; json: string } | { ok: false; reason: 'not_found' | 'denied' | 'unavailable'; message: string };

const REGISTRY_PATHS: Record<string, (value: string) => string> = {
  standards: (id) => `/standards/${encodeURIComponent(id)}`,
  taskspec: (code) => `/tasks/${encodeURIComponent(code)}`,
  roles: (role) => `/roles/${encodeURIComponent(role)}`,
  policy: (id) => `/policies/${encodeURIComponent(id)}`,
  'split-templates': (version) => `/split-templates/${encodeURIComponent(version)}`,
};

const ORGANIZATION_PATHS: Record<string, (value: string) => string> = {
  'split-projects': (id) => `/split-projects/${encodeURIComponent(id)}`,
  'settlement-runs': (id) => `/settlement-runs/${encodeURIComponent(id)}`,
  'equity-ledgers': (id) => `/equity-ledgers/${encodeURIComponent(id)}`,
};

@Injectable()
export class ResourceReader {
  constructor(
    private readonly registry: RegistryCache,
    private readonly standardsApi: StandardsApiClient,
    private readonly identity: IdentityClient,
    private readonly authorization: GatewayAuthorization,
    private readonly logger: JsonLogger,
  ) {}

  async read({ template, value }: ParsedUri, caller: McpCaller): Promise<ResourceRead> {
    if (template.action === null) return this.readRegistry(template.kind, value);
    if (value === null) return { ok: false, reason: 'not_found', message: 'Resource not found' };
    if (template.kind === 'organizations') {
      if (!isUuid(value)) return { ok: false, reason: 'not_found', message: 'Resource not found' };
      // identity reads organizations for keys only, and an agent's token goes nowhere but identity's decisions.
      if (caller.credential?.kind === 'access_token') {
        return {
          ok: false,
          reason: 'denied',
          message: "An organization's record is read with an API key; an agent reads its projects, runs and ledgers.",
        };
      }
      const allowed = await this.authorization.inOrganization(caller, template.action, value.toLowerCase());
      if (!allowed.ok) return { ok: false, reason: 'denied', message: allowed.message };
      const read = outcome(await this.identity.organization(value.toLowerCase(), caller.credential!));
      return this.recorded(read, allowed.subject, uriOf(template, value), value.toLowerCase());
    }
    const allowed = await this.authorization.inOrganization(caller, template.action);
    if (!allowed.ok || allowed.organizationId === null)
      return { ok: false, reason: 'denied', message: allowed.ok ? 'No organization.' : allowed.message };
    const path = ORGANIZATION_PATHS[template.kind]!(value);
    const read = outcome(await this.standardsApi.get(path, {}, { credential: caller.credential!, organizationId: allowed.organizationId }));
    return this.recorded(read, allowed.subject, uriOf(template, value), allowed.organizationId);
  }

  private recorded(read: ResourceRead, subject: DecisionSubjectDto, resource: string, organizationId: string): ResourceRead {
    recordAgentAction(this.logger, subject, { target: { resource }, organizationId, outcome: read.ok ? 'read' : read.reason });
    return read;
  }

  private async readRegistry(kind: string, value: string | null): Promise<ResourceRead> {
    switch (kind) {
      case 'manifest':
        return outcome(await this.registry.manifest());
      case 'glossary': {
        // Every term (SPEC.md has the glossary as one resource): serialized once per release, and the terms
        // themselves not kept, so a read costs a copy of the text rather than a walk of every page of terms.
        const glossary = await this.registry.perRelease('glossary', async () => {
          const terms = await this.registry.walk('terms');
          return terms.ok ? { ...terms, body: JSON.stringify({ terms: terms.body }) } : terms;
        });
        return glossary.ok ? { ok: true, json: glossary.body } : outcome(glossary);
      }
      case 'glossary-page': {
        // One page of standards-api's terms per page: the cursor is standards-api's own, so a page is one read.
        const cursor = value === FIRST_GLOSSARY_PAGE ? undefined : (value ?? undefined);
        const page = await this.registry.read<{ items: TermDto[]; nextCursor: string | null }>('/terms', {
          limit: String(GLOSSARY_PAGE_SIZE),
          cursor,
        });
        if (!page.ok) return outcome(page);
        const next = page.body.nextCursor;
        return {
          ok: true,
          json: JSON.stringify({
            terms: page.body.items,
            nextPage: next === null ? null : `${RESOURCE_SCHEME}://${kind}/${encodeURIComponent(next)}`,
          }),
        };
      }
      case 'brand':
        return outcome(await this.registry.read('/brand/current'));
      default:
        return outcome(await this.registry.read(REGISTRY_PATHS[kind]!(value ?? '')));
    }
  }
}

function outcome(result: UpstreamResult<unknown>): ResourceRead {
  if (result.ok) return { ok: true, json: JSON.stringify(result.body) };
  // A malformed id is as absent as an unknown one (standards-api answers 400 for a non-uuid path id).
  if (result.status === 404 || result.status === 400) return { ok: false, reason: 'not_found', message: 'Resource not found' };
  if (result.status === 401 || result.status === 403) return { ok: false, reason: 'denied', message: result.message };
  return { ok: false, reason: 'unavailable', message: result.message };
}
