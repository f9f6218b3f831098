import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ThrowawayImages } from './throwaway-images';

const SOCKET_PORT = 5432;

/**
 * Real PostgreSQL (PGlite, compiled to WebAssembly) served in-process on a private unix
 * socket, so the service talks to it through the same `pg` driver as to a server.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly socketDir: string,
    private readonly images: ThrowawayImages | undefined,
    /** The throwaway database began as the stored image of its service's schema (migrated already). */
    readonly fromSchemaImage: boolean,
  ) {}

  /**
   * `dataDir` is a folder for durable data, or `memory://` for a throwaway database, which starts from
   * the stored image `schemaImage` when there is one (see ThrowawayImages).
   */
  static async start(dataDir: string, throwaway: { schemaImage?: string; imagesFolder?: string } = {}): Promise<EmbeddedPostgres> {
    const images = dataDir === 'memory://' ? await ThrowawayImages.open(throwaway.imagesFolder) : undefined;
    if (!images) await mkdir(dataDir, { recursive: true });
    const { db, fromSchemaImage } = images
      ? await images.start(throwaway.schemaImage)
      : { db: await PGlite.create(dataDir), fromSchemaImage: false };
    const socketDir = await mkdtemp(path.join(tmpdir(), 'stdreg-pg-'));
    // The socket server runs every connection's queries in PGlite's single session, so the
    // pool in front of it keeps one connection (see docs/decisions.md); a few spare slots
    // let a reconnect overlap the connection it replaces.
    const server = new PGLiteSocketServer({ db, path: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 4 });
    await server.start();
    return new EmbeddedPostgres(db, server, socketDir, images, fromSchemaImage);
  }

  /** Keeps a throwaway database's present state as the named image for the next one. */
  async keepImage(imageName: string): Promise<void> {
    await this.images?.store(this.db, imageName).catch(() => undefined);
  }

  get connection(): { host: string; port: number; username: string; database: string } {
    return { host: this.socketDir, port: SOCKET_PORT, username: 'postgres', database: 'postgres' };
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    await rm(this.socketDir, { recursive: true, force: true });
  }
}
