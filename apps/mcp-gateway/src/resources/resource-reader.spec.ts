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
