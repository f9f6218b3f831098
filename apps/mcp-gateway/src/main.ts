import { runService } from '@stdreg/server-kit';
import { MCP_GATEWAY } from './mcp-gateway.service';

await runService(MCP_GATEWAY);
