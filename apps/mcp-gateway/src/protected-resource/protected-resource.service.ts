// The gateway as an OAuth 2.1 protected resource (MCP 2025-11-25, "Authorization"): what RFC 9728 lets it say about itself.
import { Injectable } from '@nestjs/common';
import { AGENT_SCOPES } from '@stdreg/contracts';
import { McpGatewayConfig } from '../config/mcp-gateway.config';

/** The capability scopes identity grants an agent for the gateway; each tool and organization resource needs one. */
export const SCOPES_SUPPORTED = AGENT_SCOPES;

/** How a bearer challenge (RFC 6750 §3, RFC 9728 §5.1) tells an agent what went wrong and what to ask for. */
export interface BearerChallenge {
  error?: 'invalid_token' | 'insufficient_scope';
  scopes: readonly string[];
  description?: string;
}

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
  /** RFC 9728 §3.1: the well-known name inserted between the resource's origin and its path. */
  readonly metadataUrl: string;

  constructor(config: McpGatewayConfig) {
    const resource = new URL(config.mcpResourceUrl);
    this.metadataUrl = `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname === '/' ? '' : resource.pathname}`;
    this.document = {
      resource: config.mcpResourceUrl,
      authorization_servers: [config.oidcIssuer],
      scopes_supported: [...SCOPES_SUPPORTED],
      // A credential in the Authorization header only: never in a query (it would be logged) or a body.
      bearer_methods_supported: ['header'],
      resource_name: 'Standards registry tool gateway',
    };
  }

  metadata(): ProtectedResourceMetadata {
    return this.document;
  }

  /** The `WWW-Authenticate` value of a 401 or 403: where the metadata is, the scopes to ask for, and the error if any. */
  challenge({ error, scopes, description }: BearerChallenge): string {
    const fields = [
      ...(error ? [`error="${error}"`] : []),
      ...(description ? [`error_description="${description.replace(/["\\]/g, '')}"`] : []),
      `scope="${scopes.join(' ')}"`,
      `resource_metadata="${this.metadataUrl}"`,
    ];
    return `Bearer ${fields.join(', ')}`;
  }
}
