// Reads one stdreg:// resource: registry data anonymously, organization data only when identity allows.
import { Injectable } from '@nestjs/common';
import {
  categoryOf,
  ErrorCode,
  isStandardsApiErrorCode,
  type DecisionSubjectDto,
  type GatewayRefusalCode,
  type TermDto,
  type ToolRefusalCode,
} from '@stdreg/contracts';
import { isUuid, JsonLogger } from '@stdreg/server-kit';
import { recordAgentAction } from '../agent-actions/agent-action';
import { GatewayAuthorization } from '../callers/gateway-authorization';
import type { McpCaller } from '../callers/caller';
import { NO_ORGANIZATION, ORGANIZATION_RECORD_NEEDS_KEY, type CallerRefusal } from '../callers/callers.errors';
import { IdentityClient } from '../upstream/identity.client';
import { RegistryCache } from '../upstream/registry-cache';
import { StandardsApiClient } from '../upstream/standards-api.client';
import { standardsApiCodeOf, type UpstreamResult } from '../upstream/upstream-result';
import { FIRST_GLOSSARY_PAGE, GLOSSARY_PAGE_SIZE, RESOURCE_SCHEME, uriOf, type ParsedUri } from './resource-catalogue';

/** How a refused read ended: the resource is absent, the caller may not read it, or it could not be read now. */
export type ResourceReadFailure = 'not_found' | 'denied' | 'unavailable';

/** `json`: the resource's contents, serialized. `code`: why it was refused, from the contracts' catalogue. */
export type ResourceRead = { ok: true; json: string } | { ok: false; reason: ResourceReadFailure; code: ToolRefusalCode; message: string };

const NOT_FOUND = refused('resource_not_found', 'Resource not found');

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
    if (value === null) return NOT_FOUND;
    if (template.kind === 'organizations') {
      if (!isUuid(value)) return NOT_FOUND;
      if (caller.credential?.kind === 'access_token') return callerRefused(ORGANIZATION_RECORD_NEEDS_KEY);
      const allowed = await this.authorization.inOrganization(caller, template.action, value.toLowerCase());
      if (!allowed.ok) return callerRefused(allowed);
      const read = outcome(await this.identity.organization(value.toLowerCase(), caller.credential!));
      return this.recorded(read, allowed.subject, uriOf(template, value), value.toLowerCase());
    }
    const allowed = await this.authorization.inOrganization(caller, template.action);
    if (!allowed.ok) return callerRefused(allowed);
    if (allowed.organizationId === null) return callerRefused(NO_ORGANIZATION);
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

function refused(code: ToolRefusalCode, message: string): Extract<ResourceRead, { ok: false }> {
  return { ok: false, reason: failureOf(code), code, message };
}

/** A caller refused by the gateway (identity away included): its words and its code, as tools/call gives them. */
function callerRefused(refusal: CallerRefusal): ResourceRead {
  return refused(refusal.code, refusal.message);
}

function outcome(result: UpstreamResult<unknown>): ResourceRead {
  if (result.ok) return { ok: true, json: JSON.stringify(result.body) };
  const code = standardsApiCodeOf(result) ?? codelessRefusal(result.status);
  return refused(code, failureOf(code) === 'not_found' ? 'Resource not found' : result.message);
}

/** An upstream failure that names no code standards-api declares (identity's, a transport failure, a path id refused before any feature ran). */
function codelessRefusal(status: number): GatewayRefusalCode {
  // A malformed id is as absent as an unknown one (standards-api answers 400 for a non-uuid path id).
  if (status === 404 || status === 400) return 'resource_not_found';
  if (status === 401 || status === 403) return 'not_allowed';
  return 'upstream_failed';
}

/**
 * The one place a refusal's code says how a read ended (and so its JSON-RPC error): standards-api's codes
 * by their category, the gateway's own by name. identity away is `authorization_unavailable`, a refusal of
 * the caller like the others here (-32003, as before), never a plain `not_allowed`.
 */
function failureOf(code: ToolRefusalCode): ResourceReadFailure {
  if (isStandardsApiErrorCode(code)) {
    switch (categoryOf(code)) {
      case ErrorCode.NotFound:
      case ErrorCode.ValidationFailed:
        return 'not_found';
      case ErrorCode.Unauthenticated:
      case ErrorCode.Forbidden:
        return 'denied';
      default:
        return 'unavailable';
    }
  }
  switch (code) {
    case 'resource_not_found':
      return 'not_found';
    case 'credential_required':
    case 'organization_header_invalid':
    case 'organization_required':
    case 'authorization_unavailable':
    case 'not_allowed':
      return 'denied';
    case 'upstream_failed':
      return 'unavailable';
    // Refusals of a tool call or of the HTTP request, never of a read: were one to come here, it was not read.
    case 'invalid_arguments':
    case 'tool_refused':
    case 'tool_failed':
    case 'credential_too_long':
    case 'credential_invalid':
    case 'scope_insufficient':
    case 'host_not_allowed':
    case 'origin_not_allowed':
    case 'protocol_version_unsupported':
    case 'rate_limited':
    case 'rate_limiter_unavailable':
    case 'method_not_allowed':
      return 'unavailable';
  }
}
