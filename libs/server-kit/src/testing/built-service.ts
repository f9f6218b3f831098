// A service's BUILT artifact in a child process, for tests across services (a test never imports
// another app's source).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface BuiltService {
  url: string;
  stop(): Promise<void>;
  /** Ends the process with SIGKILL, as a crash would: no shutdown hooks, open requests cut. */
  kill(): Promise<void>;
}

/** A port free on the loopback interface right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The path of dist/apps/<app>/main.js, built first when absent. */
export function builtArtifact(app: string): string {
  const artifact = path.join(ROOT, 'dist/apps', app, 'main.js');
  if (!existsSync(artifact)) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'tools/build/build-app.mjs'), app], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`could not build ${app}`);
  }
  return artifact;
}

/**
 * Starts dist/apps/<app>/main.js (building it first when absent) and waits for /readyz. Its log goes
 * to `logFile` (appended) when given, else only stderr shows. `root`: another checkout's build (e.g. the
 * release before, for an upgrade check), run from there as it is, never built here.
 */
export async function startBuiltService(
  app: string,
  port: number,
  env: Record<string, string>,
  options: { logFile?: string; root?: string } = {},
): Promise<BuiltService> {
  const artifact = options.root ? path.join(options.root, 'dist/apps', app, 'main.js') : builtArtifact(app);
  const log = options.logFile ? openSync(options.logFile, 'a') : undefined;
  const child: ChildProcess = spawn(process.execPath, [artifact], {
    cwd: options.root ?? ROOT,
    stdio: log === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', log, log],
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'error', ...env },
  });
  if (log !== undefined) closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    }
  };
  const stop = () => end('SIGTERM');
  const kill = () => end('SIGKILL');
  // Up to about 75 s: a fresh embedded database and the content import are slow when the machine is busy.
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) break;
    if (
      await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop, kill };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`${app} did not become ready`);
}
