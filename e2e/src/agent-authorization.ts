// An agent host with the official MCP SDK that knows the gateway's URL and nothing else: its first
// protected call is refused 401, the SDK follows the challenge to the metadata and to identity, registers
// (a Client ID Metadata Document or Dynamic Client Registration, as identity offers and the host can) and
// sends the person to sign in; the person allows in the browser and the host finishes with the code. A
// later 403 insufficient_scope makes the SDK ask again (SEP-835), and the person is sent once more.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext } from 'playwright-core';
import { signInAndConsent, type PersonAtTheBrowser } from './agent-consent';
import { recordingFetch, type RecordedExchange, type TestOAuthClientProvider } from './agent-oauth-client';

/** One trip of the person to identity's pages on the host's behalf. */
export interface Consent {
  /** The scope the SDK asked for. */
  scope: string | null;
  /** What the consent page said; null when identity went straight back to the agent. */
  text: string | null;
}

export interface AuthorizedAgent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Every request the SDK made, in order, from the first refusal on. */
  exchanges: RecordedExchange[];
  /** Each time the person was sent to sign in and allow, in order. */
  consents: Consent[];
  /** Runs `work`; when the SDK stops it for an authorization (UnauthorizedError), the person allows and `work` runs again. */
  authorized<T>(work: (client: Client) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface AgentHost {
  mcpUrl: string;
  provider: TestOAuthClientProvider;
  /** Which of the person's organizations the host works in (X-Organization-Id on its MCP requests only). */
  organizationId: string;
}

/** The host's fetch: records every request, and names the organization on requests to the MCP endpoint only. */
function hostFetch(host: AgentHost, log: RecordedExchange[]): typeof fetch {
  const record = recordingFetch(log);
  return (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url !== host.mcpUrl) return record(input, init);
    const headers = new Headers(init?.headers);
    headers.set('x-organization-id', host.organizationId);
    return record(input, { ...init, headers });
  };
}

function sdkClient(host: AgentHost, log: RecordedExchange[]): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: host.provider, fetch: hostFetch(host, log) });
  return { client: new Client({ name: 'agent-oauth-e2e', version: '1.0.0' }), transport };
}

/** Trips to the pages one call may cause before the host gives up: one should do (a sign-in, or one step-up). */
const MAX_CONSENTS_PER_CALL = 2;

/**
 * Connects (a fresh browser session: the person signs in on the first trip), makes `firstProtectedCall`,
 * which must be refused for want of a credential (the SDK then starts the authorization and throws
 * UnauthorizedError), lets `person` allow in `browser`, finishes with the code and makes the call again.
 * A connect that is itself refused is handled the same way, with a fresh transport after the sign-in.
 */
export async function authorizeAgent(
  host: AgentHost,
  browser: BrowserContext,
  person: PersonAtTheBrowser,
  firstProtectedCall: (client: Client) => Promise<unknown>,
  screenshot?: string,
): Promise<AuthorizedAgent> {
  await browser.clearCookies();
  const exchanges: RecordedExchange[] = [];
  const consents: Consent[] = [];
  let connection = sdkClient(host, exchanges);
  const consent = async () => {
    const url = host.provider.lastAuthorizationUrl;
    const outcome = await signInAndConsent(
      browser,
      url,
      person,
      { redirectUri: host.provider.redirectUrl, expectedState: host.provider.expectedState },
      screenshot && consents.length === 0 ? screenshot : undefined,
    );
    consents.push({ scope: url.searchParams.get('scope'), text: outcome.consentText });
    await connection.transport.finishAuth(outcome.code);
  };

  try {
    await connection.client.connect(connection.transport);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    await consent();
    await connection.client.close();
    connection = sdkClient(host, exchanges);
    await connection.client.connect(connection.transport);
  }
  if (consents.length === 0) {
    const answer = await firstProtectedCall(connection.client).catch((error: unknown) => {
      if (error instanceof UnauthorizedError) return error;
      throw error;
    });
    if (!(answer instanceof UnauthorizedError))
      throw new Error(
        `the first protected call was not refused 401 without a credential; it answered ${JSON.stringify(answer).slice(0, 400)}`,
      );
    await consent();
  }
  const authorized = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    for (let trips = 0; ; trips++) {
      try {
        return await work(connection.client);
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        if (trips >= MAX_CONSENTS_PER_CALL)
          throw new Error(`one call sent the person to allow ${trips} times; so far: ${JSON.stringify(consents.map((c) => c.scope))}`);
        await consent();
      }
    }
  };
  await authorized(firstProtectedCall);
  return {
    get client() {
      return connection.client;
    },
    get transport() {
      return connection.transport;
    },
    exchanges,
    consents,
    authorized,
    close: () => connection.client.close(),
  };
}
