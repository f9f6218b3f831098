// The apps' built artifacts (dist/apps/<app>/main.js), asked to validate an environment with
// `--check-config`: the app's own config rules, without importing app code into deploy/.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, type AppName } from './config-variables';

function artifact(app: AppName): string {
  const main = path.join(ROOT, 'dist/apps', app, 'main.js');
  // Built when missing, or older than the --check-config flag.
  if (!existsSync(main) || !readFileSync(main, 'utf8').includes('--check-config')) {
    const build = spawnSync(process.execPath, [path.join(ROOT, 'tools/build/build-app.mjs'), app], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`could not build ${app}`);
  }
  return main;
}

/** Runs the app's config validation on exactly `env` (plus PATH); `ok` when it accepts it. */
export function checkConfig(app: AppName, env: Record<string, string>): { ok: boolean; output: string } {
  const result = spawnSync(process.execPath, [artifact(app), '--check-config'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  return { ok: result.status === 0 && output.includes(`${app}: configuration valid`), output };
}
