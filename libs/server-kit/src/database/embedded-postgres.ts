import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
  ) {}

  /** `dataDir` is a folder for durable data, or `memory://` for a throwaway database. */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    if (dataDir !== 'memory://') await mkdir(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir);
    const socketDir = await mkdtemp(path.join(tmpdir(), 'stdreg-pg-'));
    // The socket server runs every connection's queries in PGlite's single session, so the
    // pool in front of it keeps one connection (see docs/decisions.md); a few spare slots
    // let a reconnect overlap the connection it replaces.
    const server = new PGLiteSocketServer({ db, path: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 4 });
    await server.start();
    return new EmbeddedPostgres(db, server, socketDir);
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
