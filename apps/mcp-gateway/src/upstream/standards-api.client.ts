// Typed HTTP client of standards-api (/api/v2). Reads anything; writes only the drafts the gateway may create.
import {
  ORGANIZATION_HEADER,
  type AgentScope,
  type ForwardedCredentialDto,
  type SearchRequestDto,
  type SearchResultDto,
} from '@stdreg/contracts';
import { serviceUrl } from '@stdreg/server-kit';
import type { TokenExchangeClient } from './token-exchange.client';
import { requestJson, type UpstreamResult } from './upstream-result';

/** The only standards-api writes a tool may make: creating a draft split project. Activation, rule versions,
 *  settlement posting, equity and payments are not here, so no tool can reach them. */
const DRAFT_WRITE_PATHS = [/^\/split-projects$/];

export function isDraftWritePath(path: string): boolean {
  return DRAFT_WRITE_PATHS.some((pattern) => pattern.test(path));
}

export interface ActingAs {
  credential: ForwardedCredentialDto;
  organizationId: string;
  /** Sent as Idempotency-Key: standards-api then answers a retried draft with the first result. */
  idempotencyKey?: string;
}

export class StandardsApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly exchanges?: Pick<TokenExchangeClient, 'forStandardsApi'>,
  ) {}

  async get<T>(path: string, query: Record<string, string | undefined> = {}, actingAs?: ActingAs): Promise<UpstreamResult<T>> {
    const headers = await this.headersOf(actingAs, 'projects:read');
    if (!headers.ok) return headers;
    return requestJson<T>('standards-api', {
      method: 'GET',
      url: this.url(path, query),
      headers: headers.headers,
      timeoutMs: this.timeoutMs,
    });
  }

  /** The registry's full-text search: anonymous and read-only, a POST only because the text can be long. */
  async search(request: SearchRequestDto): Promise<UpstreamResult<SearchResultDto>> {
    return requestJson<SearchResultDto>('standards-api', {
      method: 'POST',
      url: this.url('/search', {}),
      headers: {},
      body: request,
      timeoutMs: this.timeoutMs,
    });
  }

  async postDraft<T>(path: string, body: unknown, actingAs: ActingAs): Promise<UpstreamResult<T>> {
    if (!isDraftWritePath(path)) return { ok: false, status: 403, message: `The gateway does not write ${path}: agents may only draft.` };
    const headers = await this.headersOf(actingAs, 'projects:draft');
    if (!headers.ok) return headers;
    return requestJson<T>('standards-api', {
      method: 'POST',
      url: this.url(path, {}),
      headers: headers.headers,
      body,
      timeoutMs: this.timeoutMs,
    });
  }

  /**
   * An API key goes on as the caller presented it (the key is the caller at every service). An agent's
   * token never does: it is exchanged at identity for a standards-API token with the one scope this hop needs.
   */
  private async headersOf(
    actingAs: ActingAs | undefined,
    scope: AgentScope,
  ): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; status: number; message: string }> {
    if (!actingAs) return { ok: true, headers: {} };
    let bearer = actingAs.credential.value;
    if (actingAs.credential.kind === 'access_token') {
      if (!this.exchanges) return { ok: false, status: 503, message: 'The gateway cannot act for a signed-in person here.' };
      const hop = await this.exchanges.forStandardsApi(actingAs.credential.value, scope);
      if (!hop.ok) return hop;
      bearer = hop.token;
    }
    return {
      ok: true,
      headers: {
        authorization: `Bearer ${bearer}`,
        [ORGANIZATION_HEADER]: actingAs.organizationId,
        ...(actingAs.idempotencyKey ? { 'idempotency-key': actingAs.idempotencyKey } : {}),
      },
    };
  }

  private url(path: string, query: Record<string, string | undefined>): URL {
    const url = serviceUrl(this.baseUrl, `/api/v2${path}`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url;
  }
}
