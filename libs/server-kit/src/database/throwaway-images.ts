import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CLUSTER_IMAGE = 'cluster';
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * A throwaway (`memory://`) PGlite starts from a stored image instead of running initdb and every
 * migration in WebAssembly each time (seconds for every embedded test service that starts). Two images:
 * a freshly initialised cluster, and per service the cluster with its migrations applied, named by a hash
 * of the migrations' source so an edited migration never meets a stale schema. They are kept per user
 * and PGlite version in a private folder of the temporary directory; a folder another user could write to
 * is never read (see docs/decisions.md).
 */
export class ThrowawayImages {
  private constructor(private readonly folder: string | undefined) {}

  /** `folder`: where the images are kept (default: stdreg-pglite-images-<uid> in the temporary directory). */
  static async open(folder = path.join(tmpdir(), `stdreg-pglite-images-${process.getuid?.() ?? 'unknown'}`)): Promise<ThrowawayImages> {
    return new ThrowawayImages(await privateFolder(folder));
  }

  /** The migrated image's name for a service: its migrations' source, hashed. */
  static schemaImageName(service: string, migrationSources: string[]): string {
    const digest = createHash('sha256').update(migrationSources.join('\0')).digest('hex').slice(0, 16);
    return `${service}-${digest}`;
  }

  /** A PGlite from the named image, or from the fresh cluster's; `fromImage` says which was used. */
  async start(imageName: string | undefined): Promise<{ db: PGlite; fromSchemaImage: boolean }> {
    const schema = imageName ? await this.load(imageName) : undefined;
    if (schema) return { db: schema, fromSchemaImage: true };
    const cluster = await this.load(CLUSTER_IMAGE);
    if (cluster) return { db: cluster, fromSchemaImage: false };
    const db = await PGlite.create('memory://');
    await this.store(db, CLUSTER_IMAGE).catch(() => undefined);
    return { db, fromSchemaImage: false };
  }

  /** Keeps the database's present state as the named image, and drops whatever in the folder was left unused. */
  async store(db: PGlite, imageName: string): Promise<void> {
    const file = this.fileOf(imageName);
    if (!file) return;
    const dump = await db.dumpDataDir('none');
    // Written aside and renamed, so a start running beside this one reads a whole image or none.
    const partial = `${file}.${process.pid}.partial`;
    try {
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      await rename(partial, file);
    } catch (error) {
      // A full disk leaves no half-written image behind to fill it further.
      await rm(partial, { force: true });
      throw error;
    }
    await this.removeUnused(file);
  }

  private async load(imageName: string): Promise<PGlite | undefined> {
    const file = this.fileOf(imageName);
    const stored = file ? await readFile(file).catch(() => undefined) : undefined;
    if (!stored) return undefined;
    // Its time marks it as in use (see removeUnused).
    await utimes(file!, new Date(), new Date()).catch(() => undefined);
    return PGlite.create('memory://', { loadDataDir: new Blob([stored]) }).catch(() => undefined);
  }

  /**
   * Images whose migrations changed (or of a service or PGlite version no longer run) are left behind, and
   * so is a partial image of a start that was killed while writing one: whatever nobody used for a day
   * goes. (The same migrations compiled by two tools, the tests' and the build's, hash differently: both
   * stay, as both are used.)
   */
  private async removeUnused(kept: string): Promise<void> {
    for (const name of await readdir(this.folder!)) {
      const file = path.join(this.folder!, name);
      if (file === kept) continue;
      const found = await stat(file).catch(() => undefined);
      if (found?.isFile() && Date.now() - found.mtimeMs > UNUSED_FOR_MS) await rm(file, { force: true });
    }
  }

  private fileOf(imageName: string): string | undefined {
    return this.folder && path.join(this.folder, `${pgliteVersion()}-${imageName}.tar`);
  }
}

/** The folder of this user's images, or undefined where it is not this user's alone. */
async function privateFolder(folder: string): Promise<string | undefined> {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  await mkdir(folder, { mode: 0o700 }).catch(() => undefined);
  const found = await lstat(folder).catch(() => undefined);
  const ownedAndPrivate = found?.isDirectory() && found.uid === uid && (found.mode & 0o077) === 0;
  return ownedAndPrivate ? folder : undefined;
}

let version: string | undefined;
function pgliteVersion(): string {
  if (version) return version;
  const require = createRequire(import.meta.url);
  let folder = path.dirname(require.resolve('@electric-sql/pglite'));
  while (path.basename(folder) !== 'pglite' && path.dirname(folder) !== folder) folder = path.dirname(folder);
  version = (require(path.join(folder, 'package.json')) as { version: string }).version;
  return version;
}
