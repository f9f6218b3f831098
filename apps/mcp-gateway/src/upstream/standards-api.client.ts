// Typed HTTP client of standards-api (/api/v2). Reads anything; writes only the drafts the gateway may create.
import { ORGANIZATION_HEADER, type ForwardedCredentialDto } from '@stdreg/contracts';
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
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.base = `${baseUrl.replace(/\/$/, '')}/api/v2`;
  }

  get<T>(path: string, query: Record<string, string | undefined> = {}, actingAs?: ActingAs): Promise<UpstreamResult<T>> {
    return requestJson<T>('standards-api', {
      method: 'GET',
      url: this.url(path, query),
      headers: headersOf(actingAs),
      timeoutMs: this.timeoutMs,
    });
  }

  async postDraft<T>(path: string, body: unknown, actingAs: ActingAs): Promise<UpstreamResult<T>> {
    if (!isDraftWritePath(path)) return { ok: false, status: 403, message: `The gateway does not write ${path}: agents may only draft.` };
    return requestJson<T>('standards-api', {
      method: 'POST',
      url: this.url(path, {}),
      headers: headersOf(actingAs),
      body,
      timeoutMs: this.timeoutMs,
    });
  }

  private url(path: string, query: Record<string, string | undefined>): URL {
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url;
  }
}

function headersOf(actingAs: ActingAs | undefined): Record<string, string> {
  if (!actingAs) return {};
  return {
    authorization: `Bearer ${actingAs.credential.value}`,
    [ORGANIZATION_HEADER]: actingAs.organizationId,
    ...(actingAs.idempotencyKey ? { 'idempotency-key': actingAs.idempotencyKey } : {}),
  };
}
