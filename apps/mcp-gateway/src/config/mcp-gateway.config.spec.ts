import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { McpGatewayConfig } from './mcp-gateway.config';

/** The problems a start with `env` is refused for, or [] when it starts. */
function problemsWith(env: Record<string, string>): string[] {
  try {
    loadConfig(McpGatewayConfig, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}

describe("the gateway's configuration", () => {
  it('starts with the defaults', () => {
    expect(problemsWith({})).toEqual([]);
  });

  it.each(['IDENTITY_URL', 'STANDARDS_API_URL'])(
    'refuses %s without an http(s) scheme, naming it (a URL the service could never call)',
    (variable) => {
      for (const value of ['identity.example.com:3003', '127.0.0.1:3003', 'localhost:3003', 'ftp://identity.example.com', 'not a url']) {
        expect(problemsWith({ [variable]: value })).toEqual([expect.stringMatching(new RegExp(`^${variable}: `))]);
      }
      expect(problemsWith({ [variable]: 'https://identity.example.com' })).toEqual([]);
    },
  );

  it.each(['IDENTITY_URL', 'STANDARDS_API_URL'])(
    'refuses %s with a query or fragment, naming it, and takes one with a path (a service behind a proxy)',
    (variable) => {
      for (const value of [
        'http://proxy:8080/identity?tenant=a',
        'http://proxy:8080/identity#v1',
        'http://proxy:8080/?',
        'http://proxy:8080#',
      ]) {
        expect(problemsWith({ [variable]: value })).toEqual([
          expect.stringMatching(new RegExp(`^${variable}: ${variable} must be .*without a query or fragment`)),
        ]);
      }
      for (const value of ['http://proxy:8080/identity', 'https://proxy.example.com/platform/identity/']) {
        expect(problemsWith({ [variable]: value })).toEqual([]);
      }
    },
  );

  it.each(['IDENTITY_URL', 'STANDARDS_API_URL', 'MCP_RESOURCE_URL'])(
    'refuses %s with credentials in it, naming it and not quoting them (fetch refuses such a URL with an error that quotes it, so it reached the log)',
    (variable) => {
      for (const value of [
        'http://svc:S3cretPW@identity:3003',
        'https://svc@proxy.example.com/identity',
        'http://:S3cretPW@127.0.0.1:3003/mcp',
      ]) {
        const problems = problemsWith({ [variable]: value });
        expect(problems).toEqual([expect.stringMatching(new RegExp(`^${variable}: ${variable} must be .*without credentials`))]);
        expect(problems.join(' ')).not.toContain('S3cretPW');
      }
    },
  );

  it('refuses browser origins with a path or no scheme', () => {
    for (const value of ['https://agent.example/app', 'agent.example', 'https://agent example']) {
      expect(problemsWith({ MCP_ALLOWED_ORIGINS: value })).toEqual([expect.stringMatching(/^MCP_ALLOWED_ORIGINS: /)]);
    }
    expect(problemsWith({ MCP_ALLOWED_ORIGINS: 'https://agent.example, http://127.0.0.1:5173' })).toEqual([]);
  });

  it.each(['MCP_TOOL_CALLS_PER_MINUTE_PER_KEY', 'MCP_TOOL_CALLS_PER_MINUTE_PER_IP'])(
    'refuses a limit of %s that is zero, negative or not a whole number',
    (variable) => {
      for (const value of ['0', '-5', '2.5', 'many']) {
        expect(problemsWith({ [variable]: value })).toEqual([expect.stringMatching(new RegExp(`^${variable}: `))]);
      }
    },
  );

  it('refuses a REDIS_URL that is not redis:// or rediss://', () => {
    for (const value of ['http://127.0.0.1:6379', '127.0.0.1:6379']) {
      expect(problemsWith({ REDIS_URL: value })).toEqual([expect.stringMatching(/^REDIS_URL: /)]);
    }
  });

  it('refuses an IDENTITY_SERVICE_TOKEN identity could never accept (short, spaced, a line break from a file), naming it', () => {
    for (const value of ['short', `${'a'.repeat(40)}\n`, `${'a'.repeat(20)} ${'a'.repeat(20)}`]) {
      expect(problemsWith({ IDENTITY_SERVICE_TOKEN: value })).toEqual([
        "IDENTITY_SERVICE_TOKEN: must be 32-200 characters of [A-Za-z0-9_-], as its token in identity's DECISION_SERVICE_TOKENS",
      ]);
    }
    expect(problemsWith({ IDENTITY_SERVICE_TOKEN: 'a'.repeat(43) })).toEqual([]);
  });

  it('refuses an MCP_ALLOWED_HOSTS with no host in it: every request would be refused 403', () => {
    for (const value of [',', ' , ', ' ']) {
      expect(problemsWith({ MCP_ALLOWED_HOSTS: value })).toEqual(['MCP_ALLOWED_HOSTS: must name at least one host']);
    }
    expect(loadConfig(McpGatewayConfig, { MCP_ALLOWED_HOSTS: 'platform.example.com,' }).MCP_ALLOWED_HOSTS).toEqual([
      'platform.example.com',
    ]);
  });

  const PUBLIC_URLS = { MCP_RESOURCE_URL: 'https://platform.example.com/mcp', OIDC_ISSUER: 'https://id.example.com/oidc' };

  it('starts in production without a DATABASE_URL: it keeps no data', () => {
    expect(problemsWith({ NODE_ENV: 'production', ...PUBLIC_URLS })).toEqual([]);
  });

  it("is refused in production without its MCP URL or identity's issuer: their defaults are this machine's, which no agent elsewhere reaches", () => {
    expect(problemsWith({ NODE_ENV: 'production' })).toEqual([
      'MCP_RESOURCE_URL: must be set when NODE_ENV=production (unset, the resource is http://127.0.0.1:<MCP_GATEWAY_PORT>/mcp, which only this machine reaches)',
      'OIDC_ISSUER: must be set when NODE_ENV=production (unset, agents are sent to sign in at http://127.0.0.1:3003/oidc, which only this machine reaches)',
    ]);
    expect(loadConfig(McpGatewayConfig, {}).oidcIssuer).toBe('http://127.0.0.1:3003/oidc');
  });

  it.each([
    ['MCP_RESOURCE_URL', 'http://platform.example.com/mcp', 'https://platform.example.com/mcp'],
    ['OIDC_ISSUER', 'http://id.example.com/oidc', 'https://id.example.com/oidc'],
  ])('is refused in production with %s on http:// to a host other than this machine', (variable, http, https) => {
    expect(problemsWith({ NODE_ENV: 'production', ...PUBLIC_URLS, [variable]: http })).toEqual([
      `${variable}: must be https:// when NODE_ENV=production (http only to this machine: localhost, 127.0.0.1, [::1])`,
    ]);
    expect(problemsWith({ NODE_ENV: 'production', ...PUBLIC_URLS, [variable]: https })).toEqual([]);
    expect(problemsWith({ NODE_ENV: 'production', ...PUBLIC_URLS, [variable]: http.replace(/\/\/[^/]+/, '//localhost:8080') })).toEqual([]);
    expect(problemsWith({ [variable]: http })).toEqual([]);
  });
});
