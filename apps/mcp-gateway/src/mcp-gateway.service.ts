import type { ServiceDefinition } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { McpGatewayConfig } from './config/mcp-gateway.config';
import { mcpCrossOrigin } from './mcp/cross-origin';
import { mcpBodyErrors } from './mcp/mcp-body-errors';
import { originPolicyOf } from './mcp/request-checks';

/** Largest JSON-RPC body: the biggest tool input (a scenario of 120 periods and 100 participants) fits well within it. */
const MCP_BODY_LIMIT = '512kb';

export const MCP_GATEWAY: ServiceDefinition<McpGatewayConfig> = {
  service: 'mcp-gateway',
  configClass: McpGatewayConfig,
  rootModule: (config) => AppModule.register(config),
  bodyLimit: MCP_BODY_LIMIT,
  // Before the body parser, so that its refusals (not JSON, too large) reach a browser client too.
  beforeKit: (app, config) => app.use('/mcp', mcpCrossOrigin(originPolicyOf(config))),
  configure: (app, config) => {
    app.set('trust proxy', config.TRUSTED_PROXY_HOPS);
    app.use(mcpBodyErrors);
  },
  port: (config) => config.MCP_GATEWAY_PORT,
  host: (config) => config.HOST,
};
