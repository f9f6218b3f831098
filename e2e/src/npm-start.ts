// The platform exactly as `npm start` runs it: tools/start.mjs (without its build step, the artifacts
// are built once before), on the embedded defaults under a temporary DATA_DIR, nothing else in its
// environment but free ports. Its TMPDIR is one of ours, so a test can find the embedded databases'
// unix sockets there and put a proxy in their place.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { readdir, readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtArtifact, CuttableProxy, freePort, ROOT } from '@stdreg/server-kit/testing';
import type { PlatformUrls } from './story';

const SERVICES = ['identity', 'standards-api', 'mcp-gateway'] as const;

export interface NpmStartPlatform extends PlatformUrls {
  /** Puts a proxy in the place of each embedded database's socket (identity's and standards-api's). */
  interposeOnDatabases(): Promise<CuttableProxy[]>;
  /** The folders of the embedded databases' unix sockets (identity's and standards-api's), to query them from outside. */
  databaseSocketDirs(): Promise<string[]>;
  /** Stops `npm start` (all three services, as Ctrl-C does) and starts it again on the same ports and DATA_DIR. */
  restart(): Promise<void>;
  /** The README's cold backup: stops `npm start` as Ctrl-C does, copies DATA_DIR to `to` (`cp -a`), starts it again. */
  coldBackup(to: string): Promise<void>;
  /** Its DATA_DIR and ports, to start another `npm start` like it (e.g. on a restored copy of DATA_DIR). */
  dataDir: string;
  ports: NpmStartPorts;
  /** Under `underShell`: kills the shell npm would have run it in (SIGKILL), passing nothing on to it. */
  killShell(): void;
  /**
   * Under `underShell`: a process group's stop as systemd sends it, in the order that loses most: the services get
   * SIGTERM first, and `afterMs` later `npm start`'s program (which passes one on). Resolves once every process of
   * the group has ended.
   */
  stopAsGroup(afterMs: number): Promise<void>;
  /** The embedded databases' data folders (identity's and standards-api's), to look at after a stop. */
  databaseDirs: string[];
  /** A running service's environment as `npm start` gave it (read from /proc), e.g. the credential it presents. */
  environmentOf(service: (typeof SERVICES)[number]): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export interface NpmStartPorts {
  identity: number;
  'standards-api': number;
  'mcp-gateway': number;
}

export interface NpmStartOptions {
  /** An existing DATA_DIR to start on (e.g. one restored from a backup), left in place at stop; a new one otherwise. */
  dataDir?: string;
  /** The ports to listen on (e.g. those of the platform a backup came from, whose issuer URL names them); free ones otherwise. */
  ports?: NpmStartPorts;
  /** Run under `sh -c` as npm runs a script, the shell staying its parent (as npm's does). */
  underShell?: boolean;
  /** Where everything `npm start` prints is also written (appended), its services' logs included. */
  logFile?: string;
}

/** Starts `npm start`'s program and waits for its "Platform ready" line; `env` adds settings (e.g. the pool's idle timeout). */
export async function startWithNpmStart(env: Record<string, string> = {}, options: NpmStartOptions = {}): Promise<NpmStartPlatform> {
  for (const service of SERVICES) builtArtifact(service);
  const root = await mkdtemp(path.join(tmpdir(), 'stdreg-npm-start-'));
  const dataDir = options.dataDir ?? path.join(root, 'data');
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  const ports = options.ports ?? { identity: await freePort(), 'standards-api': await freePort(), 'mcp-gateway': await freePort() };
  const childEnv = {
    PATH: process.env['PATH'] ?? '',
    TMPDIR: tmp,
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    IDENTITY_PORT: String(ports.identity),
    STANDARDS_API_PORT: String(ports['standards-api']),
    MCP_GATEWAY_PORT: String(ports['mcp-gateway']),
    ...env,
  };
  const proxies: CuttableProxy[] = [];
  let running = await launch(childEnv, options);
  const stop = async () => {
    await running.stop();
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await rm(root, { recursive: true, force: true });
  };
  const ready = await running.ready;
  if (!ready.ok) {
    await stop();
    throw new Error(ready.problem);
  }

  const socketDirs = async () => {
    const found = (await readdir(tmp)).filter((name) => name.startsWith('stdreg-pg-'));
    if (found.length !== 2) throw new Error(`expected the two embedded databases' sockets, found ${found.join(', ')}`);
    return found.map((name) => path.join(tmp, name));
  };
  return {
    identityUrl: `http://127.0.0.1:${ports.identity}`,
    standardsApiUrl: `http://127.0.0.1:${ports['standards-api']}`,
    mcpUrl: `http://127.0.0.1:${ports['mcp-gateway']}/mcp`,
    platformKey: (await readFile(path.join(dataDir, 'bootstrap-platform-key'), 'utf8')).trim(),
    interposeOnDatabases: async () => {
      for (const dir of await socketDirs()) proxies.push(await CuttableProxy.interpose(path.join(dir, '.s.PGSQL.5432')));
      return proxies.slice(-2);
    },
    restart: async () => {
      await running.stop();
      running = await launch(childEnv, options);
      const again = await running.ready;
      if (!again.ok) throw new Error(again.problem);
    },
    coldBackup: async (to) => {
      await running.stop();
      const copied = spawnSync('cp', ['-a', dataDir, to], { encoding: 'utf8' });
      if (copied.status !== 0) throw new Error(`copying DATA_DIR failed: ${copied.stderr}`);
      running = await launch(childEnv, options);
      const again = await running.ready;
      if (!again.ok) throw new Error(again.problem);
    },
    dataDir,
    ports,
    databaseSocketDirs: socketDirs,
    killShell: () => running.killShell(),
    stopAsGroup: (afterMs) => running.stopAsGroup(afterMs),
    databaseDirs: ['identity', 'standards-api'].map((service) => path.join(dataDir, service)),
    environmentOf: (service) => running.environmentOf(service),
    stop,
  };
}

interface Launched {
  ready: Promise<{ ok: true } | { ok: false; problem: string }>;
  killShell(): void;
  stopAsGroup(afterMs: number): Promise<void>;
  environmentOf(service: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** One run of tools/start.mjs; `ready` settles on its "Platform ready" line, or on its failing to come up. */
async function launch(env: Record<string, string>, options: NpmStartOptions): Promise<Launched> {
  const program = [process.execPath, path.join(ROOT, 'tools/start.mjs'), '--no-build'];
  // `; exit $?` keeps the shell from replacing itself with the program, as npm's shell does not.
  const child: ChildProcess = options.underShell
    ? spawn('sh', ['-c', `${program.map((part) => JSON.stringify(part)).join(' ')}; exit $?`], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env,
        detached: true,
      })
    : spawn(program[0]!, program.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    // Whatever the shell left behind (its own group), so a failed test leaves no services running.
    if (options.underShell) killGroup(child.pid!);
  };
  const ready = (async () => {
    const deadline = Date.now() + 150_000;
    while (!/Platform (ready|started)/.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        return { ok: false as const, problem: `npm start did not come up:\n${output}` };
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!output.includes('Platform ready')) {
      await stop();
      return { ok: false as const, problem: `npm start came up with a service not ready:\n${output}` };
    }
    return { ok: true as const };
  })();
  const stopAsGroup = async (afterMs: number) => {
    const [program] = childrenOf(child.pid!);
    for (const service of childrenOf(program!)) process.kill(service, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    try {
      process.kill(program!, 'SIGTERM');
    } catch {
      // every service had stopped, and the program with them
    }
    // The services end when they have closed everything (the test's time limit bounds it).
    while (groupAlive(child.pid!)) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  const environmentOf = async (service: string) => {
    const program = options.underShell ? childrenOf(child.pid!)[0]! : child.pid!;
    const main = path.join('dist/apps', service, 'main.js');
    for (const pid of childrenOf(program)) {
      if (!(await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').some((part) => part.endsWith(main))) continue;
      const entries = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').filter(Boolean);
      return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
    }
    throw new Error(`npm start runs no ${service}`);
  };
  return { ready, stop, killShell: () => void child.kill('SIGKILL'), stopAsGroup, environmentOf };
}

function childrenOf(pid: number): number[] {
  const found = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout;
  return found.split('\n').filter(Boolean).map(Number);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone
  }
}
