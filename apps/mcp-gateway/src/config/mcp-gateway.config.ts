import { Type } from 'class-transformer';
import { IsInt, IsUrl, Max, Min } from 'class-validator';
import { CommonServiceConfig } from '@stdreg/server-kit';

export class McpGatewayConfig extends CommonServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  MCP_GATEWAY_PORT = 3002;

  /** Base URL of standards-api (without /api/v2). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'STANDARDS_API_URL must be an http(s) URL' })
  STANDARDS_API_URL = 'http://127.0.0.1:3001';

  /** Base URL of identity (without /v1). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'IDENTITY_URL must be an http(s) URL' })
  IDENTITY_URL = 'http://127.0.0.1:3003';
}
