// An agent host with the official MCP SDK that knows the gateway's URL and nothing else: its first
// protected call is refused 401, the SDK follows the challenge to the metadata and to identity, registers
// (a Client ID Metadata Document or Dynamic Client Registration, as identity offers and the host can) and
// sends the person to sign in; the person allows in the browser and the host finishes with the code.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext } from 'playwright-core';
import { signInAndConsent, type PersonAtTheBrowser } from './agent-consent';
import { recordingFetch, type RecordedExchange, type TestOAuthClientProvider } from './agent-oauth-client';

export interface AuthorizedAgent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Every request the SDK made, in order, from the first refusal to the call that worked. */
  exchanges: RecordedExchange[];
  /** What the consent page said to the person. */
  consentText: string;
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

export function connectSdkClient(host: AgentHost, log: RecordedExchange[]): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl), { authProvider: host.provider, fetch: hostFetch(host, log) });
  return { client: new Client({ name: 'agent-oauth-e2e', version: '1.0.0' }), transport };
}

/**
 * Connects, makes `firstProtectedCall` (which must be refused for want of a credential: the SDK then starts
 * the authorization and throws UnauthorizedError), lets `person` sign in and allow in `browser`, finishes
 * the authorization with the code, and answers the connected client. A connect that is itself refused is
 * handled the same way, with a fresh transport after the sign-in.
 */
export async function authorizeAgent(
  host: AgentHost,
  browser: BrowserContext,
  person: PersonAtTheBrowser,
  firstProtectedCall: (client: Client) => Promise<unknown>,
  screenshot?: string,
): Promise<AuthorizedAgent> {
  const exchanges: RecordedExchange[] = [];
  let connection = connectSdkClient(host, exchanges);
  let connectRefused = false;
  try {
    await connection.client.connect(connection.transport);
    await firstProtectedCall(connection.client).then(
      (answer) => {
        throw new Error(
          `the first protected call was not refused 401 without a credential; it answered ${JSON.stringify(answer).slice(0, 400)}`,
        );
      },
      (error: unknown) => {
        if (!(error instanceof UnauthorizedError)) throw error;
      },
    );
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    connectRefused = true;
  }
  const { code, consentText } = await signInAndConsent(
    browser,
    host.provider.lastAuthorizationUrl,
    person,
    { redirectUri: host.provider.redirectUrl, expectedState: host.provider.expectedState },
    screenshot,
  );
  await connection.transport.finishAuth(code);
  if (connectRefused) {
    await connection.client.close();
    connection = connectSdkClient(host, exchanges);
    await connection.client.connect(connection.transport);
  }
  const { client, transport } = connection;
  return { client, transport, exchanges, consentText, close: () => client.close() };
}
