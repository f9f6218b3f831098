// Typed HTTP client of identity's organization read (/v1/organizations/{id}), with the caller's own key.
import type { ForwardedCredentialDto, OrganizationDto } from '@stdreg/contracts';
import { serviceUrl } from '@stdreg/server-kit';
import { requestJson, type UpstreamResult } from './upstream-result';

export class IdentityClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  organization(id: string, credential: ForwardedCredentialDto): Promise<UpstreamResult<OrganizationDto>> {
    return requestJson<OrganizationDto>('identity', {
      method: 'GET',
      url: serviceUrl(this.baseUrl, `/v1/organizations/${encodeURIComponent(id)}`),
      headers: { authorization: `Bearer ${credential.value}` },
      timeoutMs: this.timeoutMs,
    });
  }
}
