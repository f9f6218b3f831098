// The gateway in this process (listening on a free port), and an MCP SDK client connected to it.
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { McpGatewayConfig } from '../../src/config/mcp-gateway.config';
import { MCP_GATEWAY } from '../../src/mcp-gateway.service';

export interface RunningGateway {
  url: string;
  mcpUrl: string;
  /** The gateway's Nest application (a test reads its providers, e.g. its AuthorizationClient). */
  app: NestExpressApplication;
  close(): Promise<void>;
}

/** `port`: where to listen (a port chosen beforehand, when the gateway's own URL must be known first); 0 for any. */
export async function startGateway(env: Record<string, string>, listenOn = 0): Promise<RunningGateway> {
  const app: NestExpressApplication = await createServiceApp(MCP_GATEWAY, loadConfig(McpGatewayConfig, { LOG_LEVEL: 'error', ...env }));
  await app.listen(listenOn, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return { url, mcpUrl: `${url}/mcp`, app, close: () => app.close() };
}

/** A 2020-12 validator: the client checks every structuredContent against the tool's output schema with it. */
/** The gateway in front of a started platform's standards-api and identity. */
export function startGatewayOn(
  platform: { standardsApiUrl: string; identityUrl: string; serviceToken: string },
  env: Record<string, string> = {},
): Promise<RunningGateway> {
  return startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    ...env,
  });
}

export function draft2020Validator(): AjvJsonSchemaValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
  return new AjvJsonSchemaValidator(ajv);
}

/** An SDK client; `sdkDefaultValidator` keeps the SDK's own (draft-07 Ajv) validator, as most agents will. */
export async function connectClient(mcpUrl: string, headers: Record<string, string> = {}, sdkDefaultValidator = false): Promise<Client> {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    sdkDefaultValidator ? {} : { jsonSchemaValidator: draft2020Validator() },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }));
  return client;
}
