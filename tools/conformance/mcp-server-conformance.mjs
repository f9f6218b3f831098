// CI: the MCP conformance suite (server mode) against the BUILT gateway, with identity and standards-api
// it reads from, all on embedded databases in a temporary folder. Scenarios that cannot apply to this
// server are in apps/mcp-gateway/conformance-expected-failures.yml, one reason each.
// Run with Node 22+ (`npx node tools/conformance/mcp-server-conformance.mjs`) after `npm run build`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-conformance-'));
const serviceToken = randomBytes(32).toString('base64url');

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const [identityPort, standardsPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
const env = {
  PATH: process.env.PATH ?? '',
  LOG_LEVEL: 'error',
  IDENTITY_PORT: String(identityPort),
  STANDARDS_API_PORT: String(standardsPort),
  MCP_GATEWAY_PORT: String(gatewayPort),
  IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
  OIDC_ISSUER: `http://127.0.0.1:${identityPort}/oidc`,
  MCP_RESOURCE_URL: `http://127.0.0.1:${gatewayPort}/mcp`,
  STANDARDS_API_URL: `http://127.0.0.1:${standardsPort}`,
  IDENTITY_SERVICE_TOKEN: serviceToken,
  DECISION_SERVICE_TOKENS: `platform:${serviceToken}`,
  BOOTSTRAP_PLATFORM_KEY: 'auto',
};
const children = [];

function start(service, port) {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps', service, 'main.js')], {
    cwd: root,
    env: { ...env, DATA_DIR: path.join(dataDir, service) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return waitReady(service, port, child);
}

/**
 * Three minutes: started side by side on embedded databases, identity took over a minute on a CI machine at a load
 * of 17 (alone and quiet, about ten seconds).
 */
const READY_WITHIN_MS = 180_000;

async function waitReady(service, port, child) {
  for (const deadline = Date.now() + READY_WITHIN_MS; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service} did not become ready`);
}

async function stopAll() {
  await Promise.all(
    children
      .filter((c) => c.exitCode === null)
      .map(
        (c) =>
          new Promise((resolve) => {
            c.once('exit', resolve);
            c.kill('SIGTERM');
          }),
      ),
  );
  await rm(dataDir, { recursive: true, force: true });
}

let exitCode = 1;
try {
  await Promise.all([start('identity', identityPort), start('standards-api', standardsPort)]);
  await start('mcp-gateway', gatewayPort);
  const suite = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
      'server',
      '--url',
      `http://127.0.0.1:${gatewayPort}/mcp`,
      '--expected-failures',
      path.join(root, 'apps/mcp-gateway/conformance-expected-failures.yml'),
      '--output-dir',
      path.join(dataDir, 'results'),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  exitCode = await new Promise((resolve) => suite.once('exit', (code) => resolve(code ?? 1)));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await stopAll();
}
process.exit(exitCode);
