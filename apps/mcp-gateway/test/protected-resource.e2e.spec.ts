import request from 'supertest';
import { discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { McpGatewayConfig } from '../src/config/mcp-gateway.config';
import { startGateway } from './support/gateway';

const METADATA_PATHS = ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'];

describe('the gateway as an OAuth protected resource (RFC 9728)', () => {
  it('serves its metadata at the path-suffixed and the root well-known URL', async () => {
    const gateway = await startGateway({
      MCP_RESOURCE_URL: 'https://platform.example.com/mcp',
      OIDC_ISSUER: 'https://identity.example.com/oidc',
    });
    try {
      for (const path of METADATA_PATHS) {
        const response = await request(gateway.url).get(path).expect(200);
        expect({ path, type: response.headers['content-type'] }).toEqual({ path, type: expect.stringMatching(/^application\/json/) });
        expect(response.headers['cache-control']).toBe('public, max-age=300');
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.body).toEqual({
          resource: 'https://platform.example.com/mcp',
          authorization_servers: ['https://identity.example.com/oidc'],
          scopes_supported: ['registry:read', 'projects:read', 'projects:draft'],
          bearer_methods_supported: ['header'],
          resource_name: 'Standards registry tool gateway',
        });
        expect(OAuthProtectedResourceMetadataSchema.safeParse(response.body).success).toBe(true);
      }
    } finally {
      await gateway.close();
    }
  });

  it('has no entity tag: a tag in If-None-Match changes nothing, * is a 304 with the headers of the 200, HEAD agrees', async () => {
    const gateway = await startGateway({});
    try {
      const path = METADATA_PATHS[0]!;
      const ok = await request(gateway.url).get(path).expect(200);
      expect(ok.headers['etag']).toBeUndefined();
      expect(ok.headers['last-modified']).toBeUndefined();
      for (const headers of [
        { 'If-None-Match': '"x"' },
        { 'If-None-Match': 'W/"x", "y"' },
        { 'If-Modified-Since': new Date().toUTCString() },
      ]) {
        const answer = await request(gateway.url).get(path).set(headers);
        expect([headers, answer.status]).toEqual([headers, 200]);
      }
      // RFC 9110 section 13.1.2: * is false when a current representation exists, so a GET is answered 304.
      const notModified = await request(gateway.url).get(path).set('If-None-Match', '*').expect(304);
      expect([notModified.headers['cache-control'], notModified.text]).toEqual(['public, max-age=300', '']);
      const head = await request(gateway.url).head(path).expect(200);
      expect([head.headers['content-length'], head.headers['cache-control'], head.text]).toEqual([
        ok.headers['content-length'],
        'public, max-age=300',
        undefined,
      ]);
    } finally {
      await gateway.close();
    }
  });

  it("is found by the MCP SDK's discovery from the MCP URL, and names that URL as the resource by default", async () => {
    const gateway = await startGateway({});
    try {
      const metadata = await discoverOAuthProtectedResourceMetadata(gateway.mcpUrl);
      // The default is the port the gateway is configured with (here 3002, while the test listens elsewhere).
      expect(metadata).toMatchObject({ resource: 'http://127.0.0.1:3002/mcp', authorization_servers: ['http://127.0.0.1:3003/oidc'] });
    } finally {
      await gateway.close();
    }
  });

  it('publishes one canonical resource whatever the case of scheme and host, a trailing slash, a default port or a fragment', async () => {
    for (const configured of [
      'https://platform.example.com/mcp',
      'https://platform.example.com/mcp/',
      'HTTPS://Platform.EXAMPLE.com/mcp',
      'https://PLATFORM.example.com:443/mcp//',
      'https://platform.example.com/mcp#tools',
    ]) {
      const config = loadConfig(McpGatewayConfig, { MCP_RESOURCE_URL: configured });
      expect({ configured, resource: config.mcpResourceUrl }).toEqual({ configured, resource: 'https://platform.example.com/mcp' });
    }
    for (const configured of ['http://LOCALHOST:8080/mcp/', 'http://localhost:8080/mcp']) {
      expect(loadConfig(McpGatewayConfig, { MCP_RESOURCE_URL: configured }).mcpResourceUrl).toBe('http://localhost:8080/mcp');
    }
    expect(loadConfig(McpGatewayConfig, { MCP_RESOURCE_URL: 'http://127.0.0.1:3002/mcp' }).mcpResourceUrl).toBe(
      'http://127.0.0.1:3002/mcp',
    );
    expect(loadConfig(McpGatewayConfig, { MCP_RESOURCE_URL: 'https://platform.example.com/Tools/MCP/' }).mcpResourceUrl).toBe(
      'https://platform.example.com/Tools/MCP',
    );
    const gateway = await startGateway({ MCP_RESOURCE_URL: 'HTTPS://Platform.Example.com/mcp/' });
    try {
      const { body } = await request(gateway.url).get(METADATA_PATHS[0]!).expect(200);
      expect(body.resource).toBe('https://platform.example.com/mcp');
    } finally {
      await gateway.close();
    }
  });

  it('refuses to start with a resource URL that has a query or is not http(s), or an issuer with a trailing slash', () => {
    for (const env of [
      { MCP_RESOURCE_URL: 'https://platform.example.com/mcp?tenant=a' },
      { MCP_RESOURCE_URL: 'urn:stdreg:mcp-gateway' },
      { MCP_RESOURCE_URL: 'https://[platform/mcp' },
      { OIDC_ISSUER: 'https://identity.example.com/oidc/' },
    ]) {
      expect(() => loadConfig(McpGatewayConfig, env)).toThrow(ConfigValidationError);
    }
  });
});
