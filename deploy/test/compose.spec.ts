// No container engine runs here, so the compose file and image definitions are checked by reading them.
// The variables each app needs are derived from its config class (support/config-variables.ts).
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { checkConfig } from './support/artifacts';
import { APPS, configVariables, hasDatabase, requiredInDeployment, ROOT as root, type AppName } from './support/config-variables';

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  ports?: string[];
  volumes?: string[];
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const apps = { identity: 'IDENTITY_PORT', 'standards-api': 'STANDARDS_API_PORT', 'mcp-gateway': 'MCP_GATEWAY_PORT' } as const;
const withDatabase = APPS.filter(hasDatabase);
/** Variables without a default that compose may leave unset, and why. */
const MAY_STAY_UNSET: Record<AppName, string[]> = {
  // The images set NODE_ENV=production.
  'standards-api': ['CONTENT_PACK_DIR', 'NODE_ENV'],
  // Agent registration stays open (OIDC_REGISTRATION's default): no initial access token.
  identity: ['OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN'],
  'mcp-gateway': ['NODE_ENV'],
};
const SIGN_IN_KEYS = ['OIDC_JWKS', 'OIDC_COOKIE_KEYS', 'OIDC_CLIENT_SECRET_KEY'];

/** A service's compose environment as compose makes it from `dotEnv` (an .env file), `${NAME:-default}` taking the default when absent. */
function resolved(app: AppName, dotEnv: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(compose.services[app]!.environment!).map(([name, value]) => [
      name,
      value.replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, variable: string, fallback: string) => dotEnv[variable] ?? fallback),
    ]),
  );
}

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, Redis, the three services, a migration run per service with a database, and an edge proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['edge', 'identity', 'mcp-gateway', 'postgres', 'redis', 'standards-api', ...withDatabase.map((app) => `${app}-migrate`)].sort(),
    );
  });

  it.each(Object.entries(apps))('builds %s from its own image definition, listening on the port it is told', (app, portVariable) => {
    const service = compose.services[app]!;
    expect(service.build).toEqual({ context: '.', dockerfile: `deploy/${app}/Dockerfile` });
    const dockerfile = read(service.build!.dockerfile);
    const port = service.environment![portVariable];
    expect(port).toMatch(/^\d+$/);
    expect(dockerfile).toContain(`nx build ${app} `);
    expect(dockerfile).toContain(`COPY --from=build /workspace/dist/apps/${app}/ ./`);
    expect(dockerfile).toContain(`EXPOSE ${port}`);
    expect(dockerfile).toContain(`127.0.0.1:${port}/readyz`);
    expect(dockerfile).toMatch(/npm install --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENV .*DATA_DIR=\/data/m);
    expect(dockerfile).toContain('chown node:node /data');
    expect(service.environment!['HOST']).toBe('0.0.0.0');
  });

  it.each(APPS)('gives %s every variable its config needs, and none it does not declare', (app) => {
    const environment = compose.services[app]!.environment!;
    expect(requiredInDeployment(app, MAY_STAY_UNSET[app]).filter((name) => environment[name] === undefined)).toEqual([]);
    const declared = configVariables(app).map((v) => v.name);
    expect(Object.keys(environment).filter((name) => !declared.includes(name))).toEqual([]);
    for (const [name, value] of Object.entries(environment).filter(([name]) => /(TOKEN|TOKENS|SECRET|PASSWORD)$/.test(name))) {
      expect({ name, fromEnvironment: value.includes('${') }).toEqual({ name, fromEnvironment: true });
    }
  });

  it.each(APPS)('gives %s values its own config validation accepts, with the defaults of ${…:-default} (built artifact)', (app) => {
    expect(checkConfig(app, resolved(app))).toEqual({ ok: true, output: `${app}: configuration valid\n` });
  });

  it('runs the gateway as development unless .env says production, which refuses its public URLs on http:// to another host (built artifact)', () => {
    expect(resolved('mcp-gateway')['NODE_ENV']).toBe('development');
    const elsewhere = { PLATFORM_BASE_URL: 'http://trial.example.net:8080', IDENTITY_BASE_URL: 'http://trial.example.net:8081' };
    expect(checkConfig('mcp-gateway', resolved('mcp-gateway', elsewhere))).toEqual({
      ok: true,
      output: 'mcp-gateway: configuration valid\n',
    });
    const refused = checkConfig('mcp-gateway', resolved('mcp-gateway', { ...elsewhere, NODE_ENV: 'production' }));
    expect(refused.ok).toBe(false);
    for (const variable of ['MCP_RESOURCE_URL', 'OIDC_ISSUER']) expect(refused.output).toContain(`${variable}: must be https://`);
    expect(checkConfig('mcp-gateway', resolved('mcp-gateway', { NODE_ENV: 'production' })).ok).toBe(true);
  });

  it('runs identity as development (its sign-in keys generated) unless .env says production, which needs the keys and its own service tokens (built artifact)', () => {
    expect(resolved('identity')['NODE_ENV']).toBe('development');
    const refused = checkConfig('identity', resolved('identity', { NODE_ENV: 'production' }));
    expect(refused.ok).toBe(false);
    for (const variable of SIGN_IN_KEYS) expect(refused.output).toContain(`${variable}: must be set when NODE_ENV=production`);
    // A key the provider can sign with: a JWKS it could not use is refused as config, as the start would refuse it.
    const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'k' };
    const keys = {
      OIDC_JWKS: JSON.stringify({ keys: [signingKey] }),
      OIDC_COOKIE_KEYS: 'c'.repeat(40),
      OIDC_CLIENT_SECRET_KEY: 's'.repeat(43),
    };
    // The trial's service tokens are in this file for anyone to read: production refuses them too.
    const withTrialTokens = checkConfig('identity', resolved('identity', { NODE_ENV: 'production', ...keys }));
    expect(withTrialTokens.ok).toBe(false);
    expect(withTrialTokens.output).toContain('DECISION_SERVICE_TOKENS: holds a value published with the project');
    const tokens = { STANDARDS_API_SERVICE_TOKEN: 'a'.repeat(40), MCP_GATEWAY_SERVICE_TOKEN: 'b'.repeat(40) };
    expect(checkConfig('identity', resolved('identity', { NODE_ENV: 'production', ...keys, ...tokens }))).toEqual({
      ok: true,
      output: 'identity: configuration valid\n',
    });
  });

  it.each(APPS)('%s trusts exactly the one proxy in front (the edge) when it reads client addresses', (app) => {
    const declares = configVariables(app).some((v) => v.name === 'TRUSTED_PROXY_HOPS');
    expect(compose.services[app]!.environment!['TRUSTED_PROXY_HOPS']).toBe(declares ? '1' : undefined);
  });

  it('keeps the generated sign-in keys of the one identity replica on a volume', () => {
    const identity = compose.services['identity']!;
    expect(identity.volumes).toContain(`identity-data:${identity.environment!['DATA_DIR'] ?? '/data'}`);
  });

  it.each(withDatabase)('migrates %s in a one-shot run of the same image before the service starts, which does not migrate', (app) => {
    const migrate = compose.services[`${app}-migrate`]!;
    const service = compose.services[app]!;
    expect(migrate.build).toEqual(service.build);
    expect(migrate.command).toEqual(['node', 'migrate.js']);
    expect(migrate.restart).toBe('no');
    expect(migrate.environment).toEqual(service.environment);
    expect(service.depends_on![`${app}-migrate`]).toEqual({ condition: 'service_completed_successfully' });
    expect(service.environment!['MIGRATE_ON_START']).toBe('false');
  });

  it('starts services only after what they depend on is healthy (or, for a migration run, completed)', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency]!;
        const oneShot = target.command?.join(' ') === 'node migrate.js';
        expect({ name, dependency, condition }).toEqual({
          name,
          dependency,
          condition: oneShot ? 'service_completed_successfully' : 'service_healthy',
        });
        if (oneShot) continue;
        const targetHasHealthcheck =
          target.healthcheck !== undefined || (target.build && read(target.build.dockerfile).includes('HEALTHCHECK'));
        expect({ dependency, targetHasHealthcheck }).toEqual({ dependency, targetHasHealthcheck: true });
      }
    }
    // standards-api and the gateway ask identity; the gateway also needs standards-api.
    expect(Object.keys(compose.services['standards-api']!.depends_on!)).toContain('identity');
    expect(Object.keys(compose.services['mcp-gateway']!.depends_on!)).toEqual(expect.arrayContaining(['identity', 'standards-api']));
  });

  it("pairs identity's decision credentials with each calling service's token", () => {
    const pairs = compose.services['identity']!.environment!['DECISION_SERVICE_TOKENS']!;
    for (const app of ['standards-api', 'mcp-gateway']) {
      expect(pairs.split(',')).toContain(`${app}:${compose.services[app]!.environment!['IDENTITY_SERVICE_TOKEN']}`);
    }
  });

  it('gives each service with data a database of its own, created at init', () => {
    const init = read('deploy/postgres/init.sql');
    const databases = withDatabase.map((app) =>
      new URL(compose.services[app]!.environment!['DATABASE_URL']!.replace(/\$\{[^}]*\}/g, 'x')).pathname.slice(1),
    );
    expect(new Set(databases).size).toBe(databases.length);
    for (const database of databases) expect(init).toContain(`CREATE DATABASE ${database};`);
    expect(compose.services['mcp-gateway']!.environment!['DATABASE_URL']).toBeUndefined();
  });

  it('routes /api/v2 and /mcp on one origin and identity on its own, through the edge only', () => {
    const edge = compose.services['edge']!;
    const conf = read('deploy/edge/nginx.conf');
    expect(existsSync(path.join(root, 'deploy/edge/nginx.conf'))).toBe(true);
    expect(conf).toMatch(/upstream standards_api \{ server standards-api:3001;/);
    expect(conf).toMatch(/upstream mcp_gateway \{ server mcp-gateway:3002;/);
    expect(conf).toMatch(/upstream identity \{ server identity:3003;/);
    expect(conf).toMatch(/listen 8080;[^}]*location \/api\/v2\/ \{\s+proxy_pass http:\/\/standards_api;/);
    expect(conf).toMatch(/location = \/mcp \{\s+proxy_pass http:\/\/mcp_gateway;/);
    expect(conf).toMatch(/listen 8081;\s+client_max_body_size 1m;\s+location ~ \^\/\(v1\|oidc\)\/ \{\s+proxy_pass http:\/\/identity;/);
    expect(conf).not.toMatch(/location[^{]*(metrics|healthz|readyz)/);
    expect(edge.ports).toEqual(['8080:8080', '8081:8081']);
    for (const app of APPS) expect({ app, ports: compose.services[app]!.ports }).toEqual({ app, ports: undefined });
    // identity's issuer is the origin the edge serves it on.
    const issuer = new URL(compose.services['identity']!.environment!['OIDC_ISSUER']!.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'));
    expect(issuer.port).toBe('8081');
    expect(issuer.pathname).toBe('/oidc');
    // RFC 8414's metadata URL for that issuer: the issuer's path inserted after the well-known prefix.
    expect(conf).toMatch(
      new RegExp(
        `listen 8081;[^]*location = /\\.well-known/oauth-authorization-server${issuer.pathname} \\{\\s+proxy_pass http://identity;`,
      ),
    );
  });

  it("names the gateway's public MCP URL and identity's issuer to the gateway, and routes its protected-resource metadata", () => {
    const gateway = compose.services['mcp-gateway']!.environment!;
    expect(gateway['OIDC_ISSUER']).toBe(compose.services['identity']!.environment!['OIDC_ISSUER']);
    // identity issues agents' tokens for exactly the resource the gateway is.
    expect(compose.services['identity']!.environment!['OIDC_MCP_RESOURCE']).toBe(gateway['MCP_RESOURCE_URL']);
    const resource = new URL(gateway['MCP_RESOURCE_URL']!.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'));
    expect({ port: resource.port, path: resource.pathname }).toEqual({ port: '8080', path: '/mcp' });
    const conf = read('deploy/edge/nginx.conf');
    expect(conf).toMatch(
      /listen 8080;[^]*location ~ \^\/\\\.well-known\/oauth-protected-resource\(\/mcp\)\?\$ \{\s+proxy_pass http:\/\/mcp_gateway;[^]*listen 8081;/,
    );
  });
});
