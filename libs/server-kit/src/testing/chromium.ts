// The one place that finds a Chromium for the browser tests and the walkthrough: CHROMIUM_PATH, else
// Debian's /usr/bin/chromium, else the Chromium inside the @sparticuz/chromium dev dependency, whose
// binary, libraries and fonts ship in the package itself (unpacked to the temp directory on first
// use; nothing is ever downloaded).
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ChromiumLaunch {
  executablePath: string;
  /** Where the browser came from, for the test log. */
  source: 'CHROMIUM_PATH' | 'debian' | '@sparticuz/chromium';
  args: string[];
  /** Extra environment of the browser process (the packaged browser's own libraries and fonts). */
  env: Record<string, string>;
}

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const COMMON_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const UNPACK_WAIT_MS = 180_000;

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export async function findChromium(): Promise<ChromiumLaunch> {
  const override = process.env['CHROMIUM_PATH'];
  if (override) {
    if (!isExecutableFile(override)) throw new Error(`CHROMIUM_PATH=${override} is not an executable file`);
    return { executablePath: override, source: 'CHROMIUM_PATH', args: COMMON_ARGS, env: {} };
  }
  if (isExecutableFile(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, source: 'debian', args: COMMON_ARGS, env: {} };
  return packagedChromium();
}

/**
 * Unpacks the packaged browser once per version into its own directory. Test workers run side by side,
 * so one unpacks (holding a lock directory) while the others wait for its `ready` mark.
 */
async function packagedChromium(): Promise<ChromiumLaunch> {
  const { default: chromium } = await import('@sparticuz/chromium');
  const home = path.join(tmpdir(), `stdreg-chromium-${packageVersion()}`);
  const ready = path.join(home, 'ready');
  const lock = `${home}.lock`;
  const deadline = Date.now() + UNPACK_WAIT_MS;
  while (!existsSync(ready)) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(ready)) unpack(home, ready);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline) throw new Error(`the packaged Chromium was not unpacked within ${UNPACK_WAIT_MS} ms (stale lock ${lock}?)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    executablePath: path.join(home, 'chromium'),
    source: '@sparticuz/chromium',
    args: [...new Set([...chromium.args.filter((arg) => !arg.startsWith('--headless')), ...COMMON_ARGS])],
    env: { LD_LIBRARY_PATH: path.join(home, 'al2023', 'lib'), FONTCONFIG_PATH: path.join(home, 'fonts') },
  };
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // A lock left by a process that died while unpacking goes after a while.
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > UNPACK_WAIT_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/**
 * The package unpacks into the temp directory, and unpacks the libraries its browser needs outside
 * Amazon Linux only when told it runs there. A child process gets both through its environment (a
 * test's process.env is Jest's copy, which node:os never reads).
 */
function unpack(home: string, ready: string): void {
  mkdirSync(home, { recursive: true });
  const entry = pathToFileURL(packageEntry()).href;
  const unpacked = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const { default: chromium } = await import(${JSON.stringify(entry)}); await chromium.executablePath();`],
    {
      env: { ...process.env, TMPDIR: home, AWS_LAMBDA_JS_RUNTIME: 'nodejs24.x' },
      encoding: 'utf8',
    },
  );
  if (unpacked.status !== 0 || !existsSync(path.join(home, 'chromium'))) {
    throw new Error(`unpacking the packaged Chromium failed (${unpacked.status}): ${unpacked.stderr}`);
  }
  // The packaged fonts.conf names Lambda's paths; without a font the browser stops. The machine's own
  // fonts come too, so the Chinese pages render where a CJK font is installed (and show boxes where not).
  writeFileSync(
    path.join(home, 'fonts', 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(home, 'fonts', 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${path.join(home, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  writeFileSync(ready, new Date().toISOString());
}

function packageEntry(): string {
  return createRequire(import.meta.url).resolve('@sparticuz/chromium');
}

/** The installed package's version (build/index.js sits one level below its manifest), so that an upgrade unpacks afresh. */
function packageVersion(): string {
  const manifest = path.join(path.dirname(packageEntry()), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
