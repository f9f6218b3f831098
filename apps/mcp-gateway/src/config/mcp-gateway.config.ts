import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { AuthorizedServiceConfig } from '@stdreg/authz-client';
import { canonicalResourceUrl } from '@stdreg/contracts';
import { HttpsInProduction, IsHttpUrl, IsServiceUrl, RequiredInProduction } from '@stdreg/server-kit';

const list = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
    : value;

/** The gateway's variables; identity's URL, the service credential and the decision settings are inherited. */
export class McpGatewayConfig extends AuthorizedServiceConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  MCP_GATEWAY_PORT = 3002;

  /**
   * The MCP endpoint's URL as agents reach it: the gateway's resource identifier (RFC 9728, RFC 8707).
   * Compared in canonical form (see `mcpResourceUrl`). Default: http://127.0.0.1:<MCP_GATEWAY_PORT>/mcp.
   */
  @IsOptional()
  @IsHttpUrl('MCP_RESOURCE_URL')
  @Matches(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?(#\S*)?$/i, {
    message: 'MCP_RESOURCE_URL must be an http(s) URL without a query (e.g. https://platform.example.com/mcp)',
  })
  @HttpsInProduction()
  @RequiredInProduction('the resource is http://127.0.0.1:<MCP_GATEWAY_PORT>/mcp, which only this machine reaches')
  MCP_RESOURCE_URL?: string = undefined;

  /**
   * identity's OpenID Provider issuer, exactly as identity's OIDC_ISSUER: the authorization server agents are sent to.
   * Default: http://127.0.0.1:3003/oidc (`oidcIssuer`).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+(\/[A-Za-z0-9._~-]+)+$/, {
    message:
      'OIDC_ISSUER must be an http(s) URL with a path (e.g. https://id.example.com/oidc), without a trailing slash, query or fragment',
  })
  @HttpsInProduction()
  @RequiredInProduction('agents are sent to sign in at http://127.0.0.1:3003/oidc, which only this machine reaches')
  OIDC_ISSUER?: string = undefined;

  /** Base URL of standards-api (without /api/v2; a path is kept, as IDENTITY_URL's). */
  @IsServiceUrl('STANDARDS_API_URL')
  STANDARDS_API_URL = 'http://127.0.0.1:3001';

  /** How long the gateway waits for standards-api or identity reads. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60000)
  UPSTREAM_TIMEOUT_MS = 5000;

  /** Host names (without port) the gateway answers for; anything else is 403 (DNS-rebinding protection). */
  @Transform(list)
  @ArrayNotEmpty({ message: 'must name at least one host' })
  @IsString({ each: true })
  @Matches(/^(\[[0-9a-f:]+\]|[a-z0-9.-]+)$/i, { each: true, message: 'MCP_ALLOWED_HOSTS must be host names separated by commas' })
  MCP_ALLOWED_HOSTS: string[] = ['localhost', '127.0.0.1', '[::1]'];

  /** Browser origins allowed to call /mcp; empty: any origin whose host is an allowed host. */
  @Transform(list)
  @IsString({ each: true })
  @Matches(/^https?:\/\/[^/\s]+$/, {
    each: true,
    message: 'MCP_ALLOWED_ORIGINS must be origins like https://agent.example separated by commas',
  })
  MCP_ALLOWED_ORIGINS: string[] = [];

  /** Redis for the tool-call buckets shared by replicas; unset: in-process buckets (each replica limits on its own). */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string = undefined;

  /** Prefix of every key the gateway writes in Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 characters of [A-Za-z0-9:_-]' })
  REDIS_KEY_PREFIX = 'stdreg:mcp-gateway:';

  /** Tool calls per minute per key (a burst of the same size is allowed). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  MCP_TOOL_CALLS_PER_MINUTE_PER_KEY = 120;

  /** Tool calls per minute per client IP. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  MCP_TOOL_CALLS_PER_MINUTE_PER_IP = 300;

  /** Express `trust proxy`: how many proxies in front set X-Forwarded-For (0: use the socket address for per-IP limits). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  TRUSTED_PROXY_HOPS = 0;

  /** How often the registry manifest digest is re-checked before cached registry reads are trusted. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3600)
  REGISTRY_CACHE_SECONDS = 5;

  get oidcIssuer(): string {
    return this.OIDC_ISSUER ?? 'http://127.0.0.1:3003/oidc';
  }

  /** The resource identifier in canonical form: lower-case scheme and host, no default port, trailing slash or fragment. */
  get mcpResourceUrl(): string {
    return canonicalResourceUrl(this.MCP_RESOURCE_URL ?? `http://127.0.0.1:${this.MCP_GATEWAY_PORT}/mcp`);
  }

  /** The gateway keeps nothing: it reads through standards-api and identity. */
  override get hasDatabase(): boolean {
    return false;
  }

  /** identity accepts only agent tokens issued for this gateway. */
  override get decisionAudience(): string {
    return this.mcpResourceUrl;
  }
}
