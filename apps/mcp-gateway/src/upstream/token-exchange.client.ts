// The gateway's hop credential for an agent: its token exchanged at identity (RFC 8693), never passed on.
import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE, type AgentScope, type TokenExchangeResponseDto } from '@stdreg/contracts';
import { serviceUrl } from '@stdreg/server-kit';
import { requestJson } from './upstream-result';

export type HopCredential = { ok: true; token: string } | { ok: false; status: number; message: string };

const CACHE_LIMIT = 10_000;
/** An exchanged token is not used in its last seconds, so that it never expires on the way. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Trades an agent's gateway token for a standards-API token that names the agent as actor, with the one
 * scope the hop needs. Exchanged tokens are reused until shortly before they expire; the agent's token is
 * checked by identity on every tool call before its exchanged token is used, so a revoked one goes nowhere.
 */
export class TokenExchangeClient {
  private readonly exchanged = new Map<string, { token: string; usableUntil: number }>();
  private readonly url: URL;

  constructor(
    identityUrl: string,
    private readonly serviceToken: string,
    private readonly timeoutMs: number,
  ) {
    this.url = serviceUrl(identityUrl, '/v1/token-exchange');
  }

  async forStandardsApi(agentToken: string, scope: AgentScope): Promise<HopCredential> {
    const key = `${createHash('sha256').update(agentToken).digest('base64url')}|${scope}`;
    const cached = this.exchanged.get(key);
    if (cached && cached.usableUntil > Date.now()) return { ok: true, token: cached.token };
    const result = await requestJson<TokenExchangeResponseDto>('identity', {
      method: 'POST',
      url: this.url,
      headers: { authorization: `Bearer ${this.serviceToken}` },
      body: { grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token: agentToken, subject_token_type: ACCESS_TOKEN_TYPE, scope },
      timeoutMs: this.timeoutMs,
    });
    if (!result.ok) {
      return result.status === 422
        ? { ok: false, status: 403, message: `identity would not act for this agent at the standards API: ${result.message}` }
        : {
            ok: false,
            status: 503,
            message: 'identity could not issue the credential for the standards API; nothing was done. Retry later.',
          };
    }
    if (typeof result.body?.access_token !== 'string' || typeof result.body.expires_in !== 'number') {
      return { ok: false, status: 503, message: 'identity answered the token exchange with something unexpected; nothing was done.' };
    }
    if (this.exchanged.size >= CACHE_LIMIT) this.exchanged.delete(this.exchanged.keys().next().value!);
    this.exchanged.set(key, {
      token: result.body.access_token,
      usableUntil: Date.now() + result.body.expires_in * 1000 - EXPIRY_MARGIN_MS,
    });
    return { ok: true, token: result.body.access_token };
  }
}
