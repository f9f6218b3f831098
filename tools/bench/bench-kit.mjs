// Shared plumbing of the benchmarks in tools/bench: tracked child processes (servers pinned to CPU 0,
// autocannon to CPU 1), readiness polling, one-off HTTP requests, the autocannon CLI as a JSON
// source, and an orderly stop: on success, on failure and on SIGINT/SIGTERM every child is stopped,
// then the cleanup steps registered with onCleanup run (last registered first), then the process
// exits (non-zero only when something did not work).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const AUTOCANNON = path.join(ROOT, 'node_modules/autocannon/autocannon.js');

export const SERVER_CPU = '0';
export const LOAD_CPU = '1';
export const READY_TIMEOUT_MS = 120_000;
export const STOP_TIMEOUT_MS = 10_000;

const children = new Set();
const cleanups = [];
let stopping = false;

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Registers a cleanup step (sync or async) to run after every child has stopped. */
export function onCleanup(step) {
  cleanups.push(step);
}

/** A temporary directory, removed at the end of the run. */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Spawns a detached child (so a Ctrl-C reaches only us and we stop it in order) and tracks it until it exits. */
export function spawnTracked(command, args, options) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, ...options });
  children.add(child);
  child.on('error', (error) => fail(`${command}: ${error.message}`));
  child.on('exit', () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after STOP_TIMEOUT_MS; resolves with how the child ended. */
export function stopChild(child) {
  child.stopRequested = true;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    const forceKill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(forceKill);
      resolve({ code, signal });
    });
    child.kill('SIGTERM');
  });
}

export async function shutdown(exitCode) {
  if (stopping) return;
  stopping = true;
  await Promise.all([...children].map(stopChild));
  let code = exitCode;
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      log(`cleanup failed: ${error.message}`);
      if (code === 0) code = 1;
    }
  }
  process.exit(code);
}

/** Reports a failure, unless we are already stopping (then it is only a child we stopped ourselves). */
export function fail(message) {
  if (stopping) return;
  log(`FAILED: ${message}`);
  return shutdown(1);
}

/** Runs the benchmark's main function, stopping everything in order however it ends. */
export function run(main) {
  const interrupt = (signal, exitCode) => {
    log(`${signal}: stopping`);
    shutdown(exitCode);
  };
  process.on('SIGINT', () => interrupt('SIGINT', 130));
  process.on('SIGTERM', () => interrupt('SIGTERM', 143));
  main().then(
    () => shutdown(0),
    (error) => fail(error.message),
  );
}

/** The PostgreSQL server's admin database, for CREATE and DROP DATABASE (PG_ADMIN_URL overrides). */
export const PG_ADMIN_URL = process.env.PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** One query on a fresh connection to `url` (the admin database by default); resolves with the rows. */
export async function pgQuery(sql, params, url = PG_ADMIN_URL) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A throwaway database on the admin server, dropped at cleanup; resolves with its URL. */
export async function createBenchDatabase(name) {
  await pgQuery(`CREATE DATABASE "${name}"`);
  onCleanup(() => pgQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * One request on a fresh connection; resolves with the status, the lower-cased headers, the raw
 * (case-preserving) headers and the body bytes. `body`, when given, is sent as is.
 */
export function request(port, { method = 'GET', path: urlPath, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: false }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A JSON request (body serialized when given); resolves with the parsed answer, fails on a status of 300 or more. */
export async function requestJson(port, method, urlPath, headers, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const response = await request(port, {
    method,
    path: urlPath,
    body: payload,
    headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) },
  });
  const text = response.body.toString('utf8');
  if (response.status >= 300) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/**
 * One JSON request timed from before it is sent to the end of the answer; fails unless it answers
 * `status`. Resolves with the milliseconds and the answer.
 */
export async function timedRequest(port, method, urlPath, headers, body, status = 200) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const allHeaders = payload ? { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : headers;
  const started = process.hrtime.bigint();
  const response = await request(port, { method, path: urlPath, headers: allHeaders, body: payload });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== status)
    throw new Error(`${method} ${urlPath} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
  return { ms, response };
}

export function get(port, urlPath, headers = {}) {
  return request(port, { path: urlPath, headers });
}

/**
 * Starts a server on the servers' CPU; its output goes to our stderr so stdout stays the report.
 * Exiting before stopChild asks it to fails the run.
 */
export function startServer(name, args, env) {
  const child = spawnTracked('taskset', ['-c', SERVER_CPU, process.execPath, ...args], { env, stdio: ['ignore', 2, 2] });
  child.on('exit', (code, signal) => {
    if (!child.stopRequested) fail(`${name} exited unexpectedly (code ${code}, signal ${signal})`);
  });
  return child;
}

/**
 * The environment of a built identity for a bench: on `port`, its data (and the bootstrap platform key,
 * BOOTSTRAP_PLATFORM_KEY=auto) in `dataDir`, on `databaseUrl`, answering decisions for the service
 * `bench` with `serviceToken`; no Redis, the issuer its own URL. `extra` is added last.
 */
export function identityBenchEnv({ port, dataDir, databaseUrl, serviceToken, extra = {} }) {
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    IDENTITY_PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
  };
  for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX', 'OIDC_ISSUER']) delete env[name];
  return { ...env, ...extra };
}

/** p50 and p99 of a list of latencies (nearest rank), with how many there were. */
export function latencyStats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

export async function waitForStatus(name, port, urlPath, status, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await get(port, urlPath).catch(() => null);
    if (response?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not answer ${status} on ${urlPath} within ${timeoutMs / 1000} s`);
}

/** Runs a Node script on the load CPU (or another) and returns its stdout parsed as JSON. */
export function runJsonScript(label, script, args, cpu = LOAD_CPU) {
  const child = spawnTracked('taskset', ['-c', cpu, process.execPath, script, ...args.map(String)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(output.stdout));
      } catch (error) {
        reject(new Error(`${label} failed (${error.message}): ${output.stderr.trim()}`));
      }
    });
  });
}

/**
 * Runs the autocannon CLI on the load CPU and returns its JSON result.
 * `headers` is a list of `Name=value` strings; `method` and `body` are passed only when given.
 */
export function autocannon({ url, connections, pipelining, seconds, method, headers = [], body, overallRate }) {
  const args = ['--json', '--no-progress', '-c', connections, '-p', pipelining, '-d', seconds];
  if (overallRate) args.push('--overallRate', overallRate);
  if (method) args.push('-m', method);
  if (body !== undefined) args.push('-b', body);
  for (const header of headers) args.push('-H', header);
  args.push(url);
  return runJsonScript('autocannon', AUTOCANNON, args);
}

/** Fails unless every response of an autocannon run had the expected status, without errors or timeouts. */
export function assertOnlyStatus(result, status, label) {
  const codes = Object.keys(result.statusCodeStats);
  if (codes.length !== 1 || codes[0] !== String(status) || result.errors > 0 || result.timeouts > 0) {
    const stats = JSON.stringify({ statusCodeStats: result.statusCodeStats, errors: result.errors, timeouts: result.timeouts });
    throw new Error(`${label}: expected only ${status} responses, got ${stats}`);
  }
}

/**
 * The tests' helper for a partner whose people sign in through identity's OpenID Provider
 * (libs/server-kit/src/testing/signed-in-partner.ts), bundled for Node next to node_modules (so its
 * packages resolve) and imported.
 */
export async function importSignedInPartner() {
  const { build } = await import('esbuild');
  const bundled = path.join(ROOT, 'tmp/bench/signed-in-partner.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'libs/server-kit/src/testing/signed-in-partner.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: bundled,
    logLevel: 'error',
  });
  return import(pathToFileURL(bundled).href);
}

/**
 * A partner's receiving server's request handler: reads the body, verifies it with `standardwebhooks` and
 * the secret of its path, and hands the verified event to `onEvent` (which answers); what does not verify
 * is refused (400) and reported to `onUnverified`.
 */
export function webhookHandler(secrets, onEvent, onUnverified) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      let event;
      try {
        event = new Webhook(secrets.get(req.url)).verify(Buffer.concat(chunks).toString('utf8'), req.headers);
      } catch {
        onUnverified();
        res.writeHead(400).end();
        return;
      }
      onEvent({ req, res, event, at });
    });
  };
}
