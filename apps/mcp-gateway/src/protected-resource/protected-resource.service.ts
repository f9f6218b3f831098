// The gateway as an OAuth 2.1 protected resource (MCP 2025-11-25, "Authorization"): what RFC 9728 lets it say about itself.
import { Injectable } from '@nestjs/common';
import { McpGatewayConfig } from '../config/mcp-gateway.config';

/**
 * The scopes identity grants today that a token for the gateway carries: `openid` (sign-in) and `api`
 * (identity's scope of the platform API). Capability scopes replace `api` later.
 */
export const SCOPES_SUPPORTED = ['openid', 'api'] as const;

/** RFC 9728 §2: the protected resource metadata document. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

@Injectable()
export class ProtectedResourceService {
  private readonly document: ProtectedResourceMetadata;

  constructor(config: McpGatewayConfig) {
    this.document = {
      resource: config.mcpResourceUrl,
      authorization_servers: [config.OIDC_ISSUER],
      scopes_supported: [...SCOPES_SUPPORTED],
      // A credential in the Authorization header only: never in a query (it would be logged) or a body.
      bearer_methods_supported: ['header'],
      resource_name: 'Standards registry tool gateway',
    };
  }

  metadata(): ProtectedResourceMetadata {
    return this.document;
  }
}
