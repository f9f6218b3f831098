// No cluster or kubeconform here: the manifests are parsed and the fields that matter are checked. The
// variables each app needs are derived from its config class (support/config-variables.ts), so a variable
// added to an app shows up here as one its manifests must provide.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  APPS,
  configVariables,
  hasDatabase,
  migrateEntryPoint,
  requiredInDeployment,
  ROOT,
  SENSITIVE,
  type AppName,
} from './support/config-variables';
import { checkConfig } from './support/artifacts';
import { find, K8S_DIR, loadManifests, manifestFiles, type Manifest } from './support/manifests';

const manifests = loadManifests();
const NAMESPACE = 'stdreg';
/** Variables without a default that a cluster may leave unset, and why. */
const MAY_STAY_UNSET: Record<AppName, string[]> = {
  // The image carries the sample pack, which is what CONTENT_PACK_DIR defaults to. Every image sets NODE_ENV=production.
  'standards-api': ['CONTENT_PACK_DIR', 'NODE_ENV'],
  // Agent registration stays open (OIDC_REGISTRATION's default): no initial access token.
  identity: ['OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN', 'NODE_ENV'],
  'mcp-gateway': ['NODE_ENV'],
};

/** NODE_ENV as the app's image sets it (its Dockerfile's ENV). */
function imageNodeEnv(app: AppName): string {
  const value = /^ENV .*\bNODE_ENV=(\S+)/m.exec(readFileSync(path.join(ROOT, 'deploy', app, 'Dockerfile'), 'utf8'))?.[1];
  if (value === undefined) throw new Error(`deploy/${app}/Dockerfile sets no NODE_ENV`);
  return value;
}
/** URL variables that name a service's own public address, not an upstream it calls. */
/** The Secret's values each app accepts or keys with (not ones it presents elsewhere): their placeholders are refused in production. */
const KEPT_SECRETS: Record<AppName, string[]> = {
  identity: ['DECISION_SERVICE_TOKENS', 'OIDC_JWKS', 'OIDC_COOKIE_KEYS', 'OIDC_CLIENT_SECRET_KEY'],
  'standards-api': [],
  'mcp-gateway': [],
};
const PUBLIC_URLS = ['MCP_RESOURCE_URL'];
const API_VERSIONS: Record<string, string> = {
  Deployment: 'apps/v1',
  Service: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  Job: 'batch/v1',
  Ingress: 'networking.k8s.io/v1',
  Namespace: 'v1',
  PodDisruptionBudget: 'policy/v1',
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a container spec as parsed from YAML
type Container = any;

function workload(app: AppName) {
  const deployment = find(manifests, 'Deployment', app)!;
  const pod = deployment.spec.template.spec;
  const container: Container = pod.containers[0];
  return { deployment, pod, container };
}

/** The variables a container gets: its env entries and every key of the ConfigMaps and Secrets it takes whole. */
function provided(container: Container): { fromConfigMap: Record<string, string>; fromSecret: Record<string, string>; env: string[] } {
  const fromConfigMap: Record<string, string> = {};
  const fromSecret: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(fromConfigMap, find(manifests, 'ConfigMap', source.configMapRef.name)?.data ?? {});
    if (source.secretRef) Object.assign(fromSecret, find(manifests, 'Secret', source.secretRef.name)?.stringData ?? {});
  }
  return { fromConfigMap, fromSecret, env: (container.env ?? []).map((e: { name: string }) => e.name) };
}

function allNames(container: Container): string[] {
  const { fromConfigMap, fromSecret, env } = provided(container);
  return [...Object.keys(fromConfigMap), ...Object.keys(fromSecret), ...env];
}

describe('deploy/k8s manifests', () => {
  it('are known kinds with the right apiVersion, in the platform namespace, labelled', () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const m of manifests) {
      expect({ file: m.file, kind: m.kind, apiVersion: m.apiVersion }).toEqual({
        file: m.file,
        kind: m.kind,
        apiVersion: API_VERSIONS[m.kind],
      });
      expect({ file: m.file, name: m.metadata.name }).toEqual({
        file: m.file,
        name: expect.stringMatching(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/),
      });
      if (m.kind !== 'Namespace') expect({ file: m.file, namespace: m.metadata.namespace }).toEqual({ file: m.file, namespace: NAMESPACE });
      expect({ file: m.file, partOf: m.metadata.labels?.['app.kubernetes.io/part-of'] }).toEqual({ file: m.file, partOf: NAMESPACE });
    }
    expect(find(manifests, 'Namespace', NAMESPACE)).toBeDefined();
  });

  it('are all listed in kustomization.yaml, except the placeholder Secrets (real ones are applied on their own)', () => {
    const kustomization = parse(readFileSync(path.join(K8S_DIR, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    const secrets = manifests.filter((m) => m.kind === 'Secret').map((m) => m.file);
    expect(secrets.sort()).toEqual(APPS.map((app) => `${app}/secret.yaml`).sort());
    const files = manifestFiles()
      .map((file) => path.relative(K8S_DIR, file))
      .filter((file) => file !== 'kustomization.yaml' && !secrets.includes(file));
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  describe.each(APPS)('%s', (app) => {
    const portVariable = configVariables(app).find((v) => v.name.endsWith('_PORT'))!.name;

    it('runs 2 replicas whose selector matches their pods, behind a Service that selects them, one kept through disruptions', () => {
      const { deployment } = workload(app);
      expect(deployment.spec.replicas).toBe(2);
      const podLabels = deployment.spec.template.metadata.labels;
      expect(podLabels).toMatchObject(deployment.spec.selector.matchLabels);
      expect(Object.keys(deployment.spec.selector.matchLabels).length).toBeGreaterThan(0);
      const service = find(manifests, 'Service', app)!;
      expect(podLabels).toMatchObject(service.spec.selector);
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      const budget = find(manifests, 'PodDisruptionBudget', app)!;
      expect(podLabels).toMatchObject(budget.spec.selector.matchLabels);
      expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
      expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    });

    it('listens on the port its config names, and the Service and probes use that port', () => {
      const { container } = workload(app);
      const port = Number(provided(container).fromConfigMap[portVariable]);
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(find(manifests, 'Service', app)!.spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(provided(container).fromConfigMap['HOST']).toBe('0.0.0.0');
    });

    it('sets requests and limits, and runs as a non-root user without privilege escalation', () => {
      const { pod, container } = workload(app);
      for (const c of [container, ...jobContainers(app)]) {
        for (const kind of ['requests', 'limits']) expect(Object.keys(c.resources[kind]).sort()).toEqual(['cpu', 'memory']);
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    });

    it('gets every variable its config needs from its ConfigMap and Secret, and none its config does not declare', () => {
      const { container } = workload(app);
      const names = allNames(container);
      expect(requiredInDeployment(app, MAY_STAY_UNSET[app]).filter((name) => !names.includes(name))).toEqual([]);
      const declared = configVariables(app).map((v) => v.name);
      expect(names.filter((name) => !declared.includes(name))).toEqual([]);
      expect(container.envFrom).toEqual([{ configMapRef: { name: `${app}-config` } }, { secretRef: { name: `${app}-secrets` } }]);
      expect(find(manifests, 'ConfigMap', `${app}-config`)).toBeDefined();
      expect(find(manifests, 'Secret', `${app}-secrets`)).toBeDefined();
    });

    it("passes the app's own config validation with its ConfigMap and Secret, in production as its image runs, but for the placeholders of secrets it must keep to itself (built artifact, --check-config)", () => {
      const { fromConfigMap, fromSecret } = provided(workload(app).container);
      expect(imageNodeEnv(app)).toBe('production');
      const checked = checkConfig(app, { NODE_ENV: imageNodeEnv(app), ...fromConfigMap, ...fromSecret });
      const kept = KEPT_SECRETS[app];
      if (kept.length === 0) {
        expect(checked).toEqual({ ok: true, output: `${app}: configuration valid\n` });
        return;
      }
      // A key or an accepted token left at its published placeholder would be known to anyone: refused, each named.
      expect(checked.ok).toBe(false);
      const refused = checked.output.split('\n').filter((line) => line.includes('holds a value published with the project'));
      expect(refused.map((line) => line.replace(/^\s*- /, '').split(':')[0]).sort()).toEqual([...kept].sort());
    });

    it('trusts exactly the one proxy in front (the ingress controller) when it reads client addresses', () => {
      const declares = configVariables(app).some((v) => v.name === 'TRUSTED_PROXY_HOPS');
      expect(provided(workload(app).container).fromConfigMap['TRUSTED_PROXY_HOPS']).toBe(declares ? '1' : undefined);
    });

    it('keeps credentials in its Secret, never in its ConfigMap', () => {
      const { fromConfigMap, fromSecret } = provided(workload(app).container);
      expect(Object.keys(fromConfigMap).filter((name) => SENSITIVE.test(name))).toEqual([]);
      expect(Object.keys(fromSecret).filter((name) => !SENSITIVE.test(name))).toEqual([]);
    });

    it('finishes in-flight requests within the grace period on SIGTERM', () => {
      const { pod, container } = workload(app);
      const shutdownMs = Number(provided(container).fromConfigMap['SHUTDOWN_TIMEOUT_MS']);
      const preStopSeconds = Number(container.lifecycle.preStop.exec.command[1]);
      expect(container.lifecycle.preStop.exec.command[0]).toBe('sleep');
      expect(shutdownMs).toBeGreaterThanOrEqual(1000);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs + preStopSeconds * 1000);
    });

    it('points its upstream URLs at Services that exist, on their ports', () => {
      const { fromConfigMap } = provided(workload(app).container);
      for (const [name, value] of Object.entries(fromConfigMap).filter(([name]) => /_URL$/.test(name) && !PUBLIC_URLS.includes(name))) {
        const url = new URL(value);
        const service = find(manifests, 'Service', url.hostname);
        expect({ name, service: service?.metadata.name }).toEqual({ name, service: url.hostname });
        expect(service!.spec.ports.map((p: { port: number }) => p.port)).toContain(Number(url.port));
      }
    });

    if (hasDatabase(app)) {
      it('has a migration Job running its migrate entry point with the same configuration, and pods that do not migrate', () => {
        expect(migrateEntryPoint(app)).toBe('src/migrate.ts');
        const job = find(manifests, 'Job', `${app}-migrate`)!;
        const [container] = jobContainers(app);
        expect(container.command).toEqual(['node', 'migrate.js']);
        expect(container.image).toBe(workload(app).container.image);
        expect(container.envFrom).toEqual(workload(app).container.envFrom);
        expect(['Never', 'OnFailure']).toContain(job.spec.template.spec.restartPolicy);
        expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
        expect(provided(workload(app).container).fromConfigMap['MIGRATE_ON_START']).toBe('false');
      });
    } else {
      it('has no database, so no migration Job', () => {
        expect(find(manifests, 'Job', `${app}-migrate`)).toBeUndefined();
        expect(allNames(workload(app).container)).not.toContain('DATABASE_URL');
      });
    }
  });

  it('has a config check that refuses a bad value, naming the variable', () => {
    const { fromConfigMap, fromSecret } = provided(workload('identity').container);
    const checked = checkConfig('identity', { ...fromConfigMap, ...fromSecret, DECISION_SERVICE_TOKENS: 'standards-api:short' });
    expect(checked.ok).toBe(false);
    expect(checked.output).toContain('DECISION_SERVICE_TOKENS');
  });

  it("pairs identity's decision credentials with each calling service's token", () => {
    const tokens = new Map(
      find(manifests, 'Secret', 'identity-secrets')!
        .stringData!['DECISION_SERVICE_TOKENS']!.split(',')
        .map((pair) => pair.split(':') as [string, string]),
    );
    const callers = APPS.filter((app) => provided(workload(app).container).fromSecret['IDENTITY_SERVICE_TOKEN'] !== undefined);
    expect(callers.sort()).toEqual(['mcp-gateway', 'standards-api']);
    for (const app of callers) expect(tokens.get(app)).toBe(provided(workload(app).container).fromSecret['IDENTITY_SERVICE_TOKEN']);
  });

  it('routes {base_url}/api/v2 and /mcp on one host and identity on its own, and nothing internal', () => {
    const ingress = find(manifests, 'Ingress', 'stdreg-edge')!;
    const routes = ingress.spec.rules.flatMap(
      (rule: {
        host: string;
        http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } }[] };
      }) =>
        rule.http.paths.map((p) => ({
          host: rule.host,
          path: p.path,
          pathType: p.pathType,
          service: p.backend.service.name,
          port: p.backend.service.port.name,
        })),
    );
    const platformHost = routes.find((r: { path: string }) => r.path === '/api/v2').host;
    const identityHost = routes.find((r: { service: string }) => r.service === 'identity').host;
    expect(platformHost).not.toBe(identityHost);
    expect(routes).toEqual(
      expect.arrayContaining([
        { host: platformHost, path: '/api/v2', pathType: 'Prefix', service: 'standards-api', port: 'http' },
        { host: platformHost, path: '/mcp', pathType: 'Exact', service: 'mcp-gateway', port: 'http' },
        { host: identityHost, path: '/v1', pathType: 'Prefix', service: 'identity', port: 'http' },
      ]),
    );
    for (const route of routes) {
      expect(find(manifests, 'Service', route.service)).toBeDefined();
      expect(route.path).not.toBe('/');
      expect(route.path).not.toMatch(/^\/(metrics|healthz|readyz)/);
    }
    // identity's OIDC issuer is served on identity's host, under a routed path.
    const issuer = new URL(find(manifests, 'ConfigMap', 'identity-config')!.data!['OIDC_ISSUER']!);
    expect(issuer.host).toBe(identityHost);
    expect(routes.some((r: { host: string; path: string }) => r.host === identityHost && issuer.pathname.startsWith(r.path))).toBe(true);
    expect(routes).toContainEqual(
      expect.objectContaining({ host: identityHost, path: `/.well-known/oauth-authorization-server${issuer.pathname}` }),
    );
    // The gateway answers for the public host only (DNS-rebinding protection).
    expect(find(manifests, 'ConfigMap', 'mcp-gateway-config')!.data!['MCP_ALLOWED_HOSTS']!.split(',')).toContain(platformHost);
  });

  it("names the gateway's public MCP URL and identity's issuer to the gateway, and routes its protected-resource metadata", () => {
    const gateway = find(manifests, 'ConfigMap', 'mcp-gateway-config')!.data!;
    expect(gateway['OIDC_ISSUER']).toBe(find(manifests, 'ConfigMap', 'identity-config')!.data!['OIDC_ISSUER']);
    // identity issues agents' tokens for exactly the resource the gateway is.
    expect(find(manifests, 'ConfigMap', 'identity-config')!.data!['OIDC_MCP_RESOURCE']).toBe(gateway['MCP_RESOURCE_URL']);
    const ingress = find(manifests, 'Ingress', 'stdreg-edge')!;
    const platform = ingress.spec.rules.find((rule: { http: { paths: { path: string }[] } }) =>
      rule.http.paths.some((p) => p.path === '/mcp'),
    );
    const resource = new URL(gateway['MCP_RESOURCE_URL']!);
    expect({ host: resource.host, path: resource.pathname }).toEqual({ host: platform.host, path: '/mcp' });
    expect(platform.http.paths).toContainEqual({
      path: '/.well-known/oauth-protected-resource',
      pathType: 'Prefix',
      backend: { service: { name: 'mcp-gateway', port: { name: 'http' } } },
    });
  });
});

function jobContainers(app: AppName): Container[] {
  const job: Manifest | undefined = find(manifests, 'Job', `${app}-migrate`);
  return job ? job.spec.template.spec.containers : [];
}
