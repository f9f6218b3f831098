// No container engine runs here, so the compose file and image definitions are checked by reading them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  ports?: string[];
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const apps = { identity: 'IDENTITY_PORT', 'standards-api': 'STANDARDS_API_PORT', 'mcp-gateway': 'MCP_GATEWAY_PORT' } as const;

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, Redis, the three services and an edge proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['edge', 'identity', 'mcp-gateway', 'postgres', 'redis', 'standards-api']);
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
    expect(service.environment!['HOST']).toBe('0.0.0.0');
  });

  it('starts services only after what they depend on is healthy', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: 'service_healthy' });
        const target = compose.services[dependency]!;
        const targetHasHealthcheck = target.healthcheck !== undefined || (target.build && read(target.build.dockerfile).includes('HEALTHCHECK'));
        expect({ dependency, targetHasHealthcheck }).toEqual({ dependency, targetHasHealthcheck: true });
      }
    }
  });

  it('gives each service with data a database of its own, created at init', () => {
    const init = read('deploy/postgres/init.sql');
    const databases = ['identity', 'standards-api'].map((app) => new URL(compose.services[app]!.environment!['DATABASE_URL']!).pathname.slice(1));
    expect(new Set(databases).size).toBe(databases.length);
    for (const database of databases) expect(init).toContain(`CREATE DATABASE ${database};`);
    expect(compose.services['mcp-gateway']!.environment!['DATABASE_URL']).toBeUndefined();
  });

  it('routes /api/v2 and /mcp through the edge proxy to the right services', () => {
    const edge = compose.services['edge']!;
    const conf = read('deploy/edge/nginx.conf');
    expect(existsSync(path.join(root, 'deploy/edge/nginx.conf'))).toBe(true);
    expect(conf).toMatch(/upstream standards_api \{ server standards-api:3001; \}/);
    expect(conf).toMatch(/upstream mcp_gateway \{ server mcp-gateway:3002; \}/);
    expect(conf).toMatch(/location \/api\/v2\/ \{\s+proxy_pass http:\/\/standards_api;/);
    expect(conf).toMatch(/location = \/mcp \{\s+proxy_pass http:\/\/mcp_gateway;/);
    expect(edge.ports).toEqual(['8080:8080']);
  });
});
