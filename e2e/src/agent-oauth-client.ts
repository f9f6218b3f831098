// An agent host as the MCP SDK sees it: an OAuthClientProvider that keeps everything in memory, whose
// "redirect to authorization" only records the URL (the test drives a browser there), and a fetch that
// records every request the SDK makes, so a test can say what the client found on its own.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** One request of the SDK client as it went out and came back. */
export interface RecordedExchange {
  method: string;
  url: string;
  status: number;
  /** The JSON-RPC method of an MCP POST, when the body names one. */
  rpcMethod?: string;
  wwwAuthenticate: string | null;
  /** The request carried an Authorization header. */
  authorized: boolean;
}

/** A fetch for the transport's `fetch` option: passes everything on, keeps a log. */
export function recordingFetch(log: RecordedExchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    let rpcMethod: string | undefined;
    if (typeof init?.body === 'string') {
      try {
        const body = JSON.parse(init.body) as { method?: unknown };
        if (typeof body.method === 'string') rpcMethod = body.method;
      } catch {
        // a form body (the token endpoint): no JSON-RPC method
      }
    }
    const response = await fetch(input, init);
    log.push({
      method: request.method,
      url: request.url,
      status: response.status,
      ...(rpcMethod ? { rpcMethod } : {}),
      wwwAuthenticate: response.headers.get('www-authenticate'),
      authorized: request.headers.has('authorization'),
    });
    return response;
  };
}

/** The agent's loopback redirect endpoint (RFC 8252 §7.3): it only has to answer, the test reads the code from the URL. */
export async function startLoopbackRedirect(): Promise<{ redirectUri: string; close(): Promise<void> }> {
  const server: Server = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('you may close this window'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface AgentClientOptions {
  clientName: string;
  redirectUri: string;
  /** An https URL where the agent's Client ID Metadata Document is published: the client id, when identity accepts those. */
  clientMetadataUrl?: string;
}

/** The client metadata a public agent client registers (DCR) or publishes (CIMD). */
export function agentClientMetadata(options: AgentClientOptions): OAuthClientMetadata {
  return {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export class TestOAuthClientProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  /** Every authorization URL the SDK sent the person to, newest last. */
  readonly authorizationUrls: URL[] = [];
  /** Every token response saved, newest last (refreshes included). */
  readonly savedTokens: OAuthTokens[] = [];
  private information: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier: string | undefined;
  private lastState: string | undefined;

  constructor(private readonly options: AgentClientOptions) {
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return agentClientMetadata(this.options);
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  /** The state of the last authorization request, which the redirect must carry back. */
  get expectedState(): string | undefined {
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.current = tokens;
    this.savedTokens.push(tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrls.push(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** As when the access token has expired: the next request is refused and the SDK has to refresh. */
  spoilAccessToken(): void {
    if (!this.current) throw new Error('no tokens to spoil');
    this.current = { ...this.current, access_token: `expired.${randomBytes(8).toString('hex')}` };
  }

  get lastAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (!url) throw new Error('the SDK has not asked for an authorization yet');
    return url;
  }
}
