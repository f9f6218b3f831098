// `npm start`: builds the three services and runs them together on one machine with the embedded
// defaults (PGlite under DATA_DIR, default .data/), prints their URLs, and stops them all on Ctrl-C.
// `npm start -- --no-build` runs what was built last.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The trial on embedded defaults: development secrets and switches, which NODE_ENV=production refuses.
const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: path.resolve(root, process.env.DATA_DIR ?? '.data') };
const ports = {
  'standards-api': Number(env.STANDARDS_API_PORT ?? 3001),
  'mcp-gateway': Number(env.MCP_GATEWAY_PORT ?? 3002),
  identity: Number(env.IDENTITY_PORT ?? 3003),
};
// Against a real PostgreSQL, identity and standards-api each need a database of their own (each keeps its own
// migrations, and both have an event outbox): one DATABASE_URL for all three would fail identity's migrations.
if (env.DATABASE_URL) {
  console.error(
    'npm start: DATABASE_URL would give identity and standards-api one database, and each needs its own: ' +
      'set IDENTITY_DATABASE_URL and STANDARDS_API_DATABASE_URL instead (README, "Against a real PostgreSQL").',
  );
  process.exit(1);
}
const databases = { identity: env.IDENTITY_DATABASE_URL, 'standards-api': env.STANDARDS_API_DATABASE_URL };
env.STANDARDS_API_URL ??= `http://127.0.0.1:${ports['standards-api']}`;
env.IDENTITY_URL ??= `http://127.0.0.1:${ports.identity}`;
// The credentials standards-api and mcp-gateway present to identity: one each, new each start (whatever the shell
// exports), each holding only the routes its service calls, as in docker-compose.yml and deploy/k8s. So a
// compromised gateway cannot hand partners events, nor standards-api exchange agents' tokens.
const serviceTokens = {
  'standards-api': randomBytes(32).toString('base64url'),
  'mcp-gateway': randomBytes(32).toString('base64url'),
};
env.DECISION_SERVICE_TOKENS = Object.entries(serviceTokens)
  .map(([service, token]) => `${service}:${token}`)
  .join(',');
env.SERVICE_RIGHTS = 'standards-api=decisions+event-handover,mcp-gateway=decisions+token-exchange';
delete env.IDENTITY_SERVICE_TOKEN;
// Sign-in: the OpenID Provider's issuer (identity serves it, the gateway's protected-resource metadata names
// it), and password-setup links printed to identity's log (development).
env.OIDC_ISSUER ??= `http://127.0.0.1:${ports.identity}/oidc`;
// The gateway's resource identifier: its MCP endpoint as agents reach it here.
env.MCP_RESOURCE_URL ??= `http://127.0.0.1:${ports['mcp-gateway']}/mcp`;
// identity issues agents' tokens for exactly that resource.
env.OIDC_MCP_RESOURCE ??= env.MCP_RESOURCE_URL;
env.PASSWORD_SETUP_LINKS_IN_LOG ??= 'true';
// Partners' webhooks may reach receivers on this machine (development; https to public addresses otherwise).
env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';

const build = process.argv.includes('--no-build')
  ? { status: 0 }
  : spawnSync(path.join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '--output-style=static'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
if (build.status !== 0) process.exit(build.status ?? 1);

const children = Object.keys(ports).map((service) =>
  spawn(process.execPath, [path.join(root, 'dist/apps', service, 'main.js')], {
    cwd: root,
    env: {
      ...env,
      ...(databases[service] ? { DATABASE_URL: databases[service] } : {}),
      ...(serviceTokens[service] ? { IDENTITY_SERVICE_TOKEN: serviceTokens[service] } : {}),
    },
    stdio: 'inherit',
  }),
);
let stopping = false;
for (const child of children) {
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`a service exited (code ${code}); stopping the others`);
      stop(code ?? 1);
    }
  });
}

function stop(exitCode = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.on('exit', resolve)) : null))).then(() =>
    process.exit(exitCode),
  );
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
// npm runs this under a shell that dies of a SIGTERM without passing it on (a supervisor stopping
// `npm start`): once the process that started this one is gone, stop as on Ctrl-C, not leave the services behind.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && !stopping) stop(0);
}, 1000).unref();

async function waitReady(service) {
  for (let attempt = 0; attempt < 240 && !stopping; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${ports[service]}/readyz`);
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

const ready = await Promise.all(Object.keys(ports).map(waitReady));
if (!stopping) {
  const lines = [
    `standards-api  http://127.0.0.1:${ports['standards-api']}/api/v2  (reference: /api/v2/docs)`,
    `mcp-gateway    ${env.MCP_RESOURCE_URL}  (metadata: http://127.0.0.1:${ports['mcp-gateway']}/.well-known/oauth-protected-resource/mcp)`,
    `identity       http://127.0.0.1:${ports.identity}/v1`,
    `OIDC issuer    ${env.OIDC_ISSUER}  (discovery: ${env.OIDC_ISSUER}/.well-known/openid-configuration)`,
  ];
  const keyFile = path.join(env.DATA_DIR, 'bootstrap-platform-key');
  if (existsSync(keyFile)) lines.push(`platform key   in ${keyFile} (created on first start; keep it secret)`);
  const state = ready.every(Boolean) ? 'ready' : 'started (not every service reports ready yet)';
  console.log(`\nPlatform ${state}; data under ${env.DATA_DIR}. Ctrl-C stops all three.\n  ${lines.join('\n  ')}\n`);
}
