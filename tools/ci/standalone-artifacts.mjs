// CI: each app builds and starts alone from its own artifact. For each of dist/apps/<app> (run
// `npm run build` first): copy it to an empty folder, install only its own production dependencies
// there, run its migration entry point where it has one, start it with Node 24 on the embedded
// defaults, check /healthz and /readyz, then send SIGTERM while a request is in flight and check that
// the request is answered, that no new connection is accepted, and that the process exits 0.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const node = path.join(root, 'node_modules/.bin/node');
const DEV_TOOLS = ['jest', 'typescript', 'nx', 'esbuild', 'eslint', 'ts-jest', '@nestjs/testing', 'supertest'];
const started = Date.now();
const running = [];

function fail(message) {
  console.error(`standalone artifacts: ${message}`);
  for (const child of running) child.kill('SIGKILL');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function prepare(app) {
  const artifact = path.join(root, 'dist/apps', app);
  if (!existsSync(path.join(artifact, 'main.js'))) fail(`${artifact}/main.js is missing: run the build first`);
  const dir = await mkdtemp(path.join(tmpdir(), `stdreg-${app}-`));
  await cp(artifact, dir, { recursive: true });
  const install = spawn('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  const status = await new Promise((resolve) => install.on('exit', resolve));
  if (status !== 0) fail(`${app}: npm install --omit=dev failed`);
  const present = DEV_TOOLS.filter((name) => existsSync(path.join(dir, 'node_modules', name)));
  if (present.length > 0) fail(`${app}: development tools installed with the artifact: ${present.join(', ')}`);
  const { dependencies } = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  console.log(`${app}: artifact installed alone (${Object.keys(dependencies).length} production dependencies)`);
  return dir;
}

function run(app, dir, args, env) {
  const child = spawn(node, args, {
    cwd: dir,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.output = '';
  child.stdout.on('data', (chunk) => (child.output += chunk));
  child.stderr.on('data', (chunk) => (child.output += chunk));
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

async function migrate(app, dir, env) {
  if (!existsSync(path.join(dir, 'migrate.js'))) return;
  const child = run(app, dir, ['migrate.js'], { ...env, LOG_LEVEL: 'info' });
  const { code } = await child.exited;
  if (code !== 0 || !child.output.includes('database schema up to date')) fail(`${app}: migrate.js exited ${code}\n${child.output}`);
  console.log(`${app}: migrate.js brought the schema up to date`);
}

async function start(app, dir, env) {
  const child = run(app, dir, ['main.js'], env);
  running.push(child);
  const url = `http://127.0.0.1:${env.PORT_VALUE}`;
  // Three minutes, as the conformance step allows: on a loaded CI machine an embedded start can take over a minute.
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    if (child.exitCode !== null) fail(`${app} exited on start (${child.exitCode})\n${child.output}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) {
      const health = await fetch(`${url}/healthz`).then((r) => r.status);
      if (health !== 200) fail(`${app}: /healthz answered ${health}`);
      console.log(`${app}: /healthz and /readyz answer 200`);
      return { child, url, port: env.PORT_VALUE };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`${app} did not become ready\n${child.output}`);
}

/** A request whose body is only half sent: in flight until the rest arrives. */
function halfSentRequest(port) {
  const body = '{"inFlight":true}';
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  const closed = new Promise((resolve) => socket.on('close', () => resolve(answer)));
  socket.on('error', () => undefined);
  socket.write(
    `POST /in-flight-check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  return { finish: () => socket.write(body.slice(5)), closed };
}

function connectionRefused(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(false)));
    socket.on('error', (error) => resolve(error.code === 'ECONNREFUSED'));
  });
}

async function stopGracefully(app, { child, port }) {
  const request = halfSentRequest(port);
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (child.exitCode !== null) fail(`${app} exited while a request was in flight\n${child.output}`);
  if (!(await connectionRefused(port))) fail(`${app} still accepted connections after SIGTERM`);
  request.finish();
  const answer = await request.closed;
  if (!/^HTTP\/1\.1 \d{3} /.test(answer)) fail(`${app}: the request in flight got no answer (${JSON.stringify(answer.slice(0, 80))})`);
  const { code, signal } = await child.exited;
  if (code !== 0) fail(`${app}: exit ${code ?? signal} after SIGTERM\n${child.output}`);
  console.log(`${app}: on SIGTERM answered the request in flight (${answer.split('\r\n')[0]}), refused new connections, exited 0`);
}

const apps = ['identity', 'standards-api', 'mcp-gateway'];
const dirs = Object.fromEntries(await Promise.all(apps.map(async (app) => [app, await prepare(app)])));

const ports = { identity: await freePort(), 'standards-api': await freePort(), 'mcp-gateway': await freePort() };
const env = {
  identity: { IDENTITY_PORT: String(ports.identity), PORT_VALUE: ports.identity, MIGRATE_ON_START: 'false' },
  'standards-api': { STANDARDS_API_PORT: String(ports['standards-api']), PORT_VALUE: ports['standards-api'], MIGRATE_ON_START: 'false' },
  'mcp-gateway': {
    MCP_GATEWAY_PORT: String(ports['mcp-gateway']),
    PORT_VALUE: ports['mcp-gateway'],
    STANDARDS_API_URL: `http://127.0.0.1:${ports['standards-api']}`,
    IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
  },
};
const services = {};
// The gateway is ready only when its upstreams answer, so it starts last and stops first.
for (const app of ['identity', 'standards-api', 'mcp-gateway']) {
  await migrate(app, dirs[app], env[app]);
  services[app] = await start(app, dirs[app], env[app]);
}
for (const app of ['mcp-gateway', 'standards-api', 'identity']) await stopGracefully(app, services[app]);
for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });
console.log(`standalone artifacts: all three build, install and run alone (${Math.round((Date.now() - started) / 1000)} s)`);
