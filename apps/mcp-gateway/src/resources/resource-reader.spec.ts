import type { JsonLogger } from '@stdreg/server-kit';
import type { GatewayAuthorization } from '../callers/gateway-authorization';
import type { McpCaller } from '../callers/caller';
import type { IdentityClient } from '../upstream/identity.client';
import type { RegistryCache } from '../upstream/registry-cache';
import type { StandardsApiClient } from '../upstream/standards-api.client';
import type { UpstreamResult } from '../upstream/upstream-result';
import { parseResourceUri } from './resource-catalogue';
import { ResourceReader } from './resource-reader';

const ORG = '01900000-0000-7000-8000-000000000001';
const caller: McpCaller = {
  credential: { kind: 'access_token', value: 'agent-token' },
  organizationId: ORG,
  organizationHeaderInvalid: false,
  ip: '10.0.0.1',
  admitted: null,
};

/** A reader whose identity allows the read and whose standards-api answers `upstream`. */
function readerAnswering(upstream: UpstreamResult<unknown>): ResourceReader {
  const authorization = {
    inOrganization: () => Promise.resolve({ ok: true, subject: { kind: 'app_key', id: 'key' }, organizationId: ORG }),
  } as unknown as GatewayAuthorization;
  const standardsApi = { get: () => Promise.resolve(upstream) } as unknown as StandardsApiClient;
  return new ResourceReader({} as RegistryCache, standardsApi, {} as IdentityClient, authorization, {} as JsonLogger);
}

describe('an organization resource the upstream refused without a code of its own', () => {
  it('is denied (not_allowed) when the hop was refused with 401 or 403, e.g. identity would not act for the agent', async () => {
    const uri = parseResourceUri(`stdreg://split-projects/${ORG}`)!;
    for (const status of [401, 403]) {
      const read = await readerAnswering({ ok: false, status, message: 'identity would not act for this agent' }).read(uri, caller);
      expect({ status, read }).toMatchObject({ status, read: { ok: false, reason: 'denied', code: 'not_allowed' } });
    }
  });
});

describe('an organization resource standards-api refused with a code of its own', () => {
  it('is not found, in the gateway’s words, when standards-api found the id malformed', async () => {
    const uri = parseResourceUri(`stdreg://equity-ledgers/${'L'.repeat(200)}`)!;
    const refusal = {
      ok: false as const,
      status: 400,
      message: 'legalEntityId is longer than 100 characters',
      domainCode: 'ledgers.legal_entity_id_too_long' as const,
    };
    expect(await readerAnswering(refusal).read(uri, caller)).toEqual({
      ok: false,
      reason: 'not_found',
      code: 'ledgers.legal_entity_id_too_long',
      message: 'Resource not found',
    });
  });
});

describe("an organization's record read with an agent's token", () => {
  it('is refused before identity is asked anything: the token goes to identity’s decisions only', async () => {
    const asked: unknown[] = [];
    const authorization = {
      inOrganization: (...args: unknown[]) => {
        asked.push(args);
        return Promise.resolve({ ok: true, subject: { kind: 'agent', id: 'agent' }, organizationId: ORG });
      },
    } as unknown as GatewayAuthorization;
    const identity = {
      organization: (...args: unknown[]) => {
        asked.push(args);
        return Promise.resolve({ ok: true, status: 200, body: { id: ORG } });
      },
    } as unknown as IdentityClient;
    const reader = new ResourceReader({} as RegistryCache, {} as StandardsApiClient, identity, authorization, {} as JsonLogger);
    expect(await reader.read(parseResourceUri(`stdreg://organizations/${ORG}`)!, caller)).toEqual({
      ok: false,
      reason: 'denied',
      code: 'not_allowed',
      message: expect.stringContaining('read with an API key'),
    });
    expect(asked).toEqual([]);
  });
});

describe("an organization's record read with an API key", () => {
  it('asks identity about, and reads, the organization in lower case whatever case the URI spells it in', async () => {
    const organization = '01900000-0000-7000-8000-00000000abcd';
    const asked: unknown[] = [];
    const read: unknown[] = [];
    const authorization = {
      inOrganization: (_caller: unknown, action: unknown, organizationId: unknown) => {
        asked.push([action, organizationId]);
        return Promise.resolve({ ok: true, subject: { kind: 'app_key', id: 'key' }, organizationId });
      },
    } as unknown as GatewayAuthorization;
    const identity = {
      organization: (organizationId: unknown, credential: unknown) => {
        read.push([organizationId, credential]);
        return Promise.resolve({ ok: true, status: 200, body: { id: organization } });
      },
    } as unknown as IdentityClient;
    const reader = new ResourceReader({} as RegistryCache, {} as StandardsApiClient, identity, authorization, {} as JsonLogger);
    const keyed: McpCaller = { ...caller, credential: { kind: 'api_key', value: 'stdreg_app_secret' } };
    expect(await reader.read(parseResourceUri(`stdreg://organizations/${organization.toUpperCase()}`)!, keyed)).toEqual({
      ok: true,
      json: JSON.stringify({ id: organization }),
    });
    expect(asked).toEqual([['organization:read', organization]]);
    expect(read).toEqual([[organization, keyed.credential]]);
  });
});
