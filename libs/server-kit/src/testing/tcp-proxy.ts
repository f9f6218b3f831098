import { rename } from 'node:fs/promises';
import { createServer, Socket, type Server } from 'node:net';

/** Where the proxy connects: a TCP host and port, or a unix socket path. */
type Endpoint = { host: string; port: number } | { path: string };

/**
 * A proxy in front of a real dependency (PostgreSQL, Redis, the embedded database's unix socket)
 * that a test can cut and restore, or use to drop a connection in the middle of a request, to see
 * what a service does while the dependency is away or after it came back.
 */
export class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly clients = new Set<Socket>();
  private port = 0;
  private dropArmed = false;
  private dropped = 0;
  private latencyMs = 0;

  private constructor(
    private readonly target: Endpoint,
    private readonly listenPath?: string,
  ) {}

  /** Proxies on a TCP port of its own to the host and port of `targetUrl` (e.g. postgres://…@127.0.0.1:5432/db). */
  static async start(targetUrl: string): Promise<CuttableProxy> {
    const url = new URL(targetUrl);
    const proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port) });
    await proxy.restore();
    return proxy;
  }

  /**
   * Puts the proxy in a listening unix socket's place: the socket moves aside and the proxy listens
   * at its path, so connections made from now on go through the proxy (open ones stay direct).
   */
  static async interpose(socketPath: string): Promise<CuttableProxy> {
    const movedAside = `${socketPath}.behind-proxy`;
    await rename(socketPath, movedAside);
    const proxy = new CuttableProxy({ path: movedAside }, socketPath);
    await proxy.restore();
    return proxy;
  }

  /** `targetUrl` with its host and port replaced by the proxy's. */
  through(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** The dependency goes away: new connections are refused and open ones are dropped. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.clients.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The next bytes a client sends through an open connection (a query of a request under way) are
   * never delivered: that connection is dropped at both ends, once. Later connections pass.
   */
  dropNextRequest(): void {
    this.dropArmed = true;
  }

  /**
   * Every chunk the dependency sends back waits `ms` before it is passed on (0: none), on open
   * connections too: a slow dependency rather than a missing one.
   */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /** How many client connections are open through the proxy now. */
  get openConnections(): number {
    return this.clients.size;
  }

  /** How many connections `dropNextRequest` dropped. */
  get droppedConnections(): number {
    return this.dropped;
  }

  /** The dependency comes back where it was. */
  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      this.clients.add(client);
      client.on('close', () => this.clients.delete(client));
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      upstream.connect(this.target);
      client.on('data', (chunk: Buffer) => {
        if (this.dropArmed) {
          this.dropArmed = false;
          this.dropped++;
          client.destroy();
          upstream.destroy();
          return;
        }
        if (!upstream.write(chunk)) client.pause();
      });
      upstream.on('drain', () => client.resume());
      client.on('drain', () => upstream.resume());
      // Paused while a chunk waits, so chunks keep their order and 'end' comes after the last one.
      upstream.on('data', (chunk: Buffer) => {
        const latency = this.latencyMs;
        if (latency === 0) {
          if (!client.write(chunk)) upstream.pause();
          return;
        }
        upstream.pause();
        setTimeout(() => {
          if (client.write(chunk)) upstream.resume();
        }, latency);
      });
      upstream.on('end', () => client.end());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    if (this.listenPath) {
      await new Promise<void>((resolve) => server.listen(this.listenPath, resolve));
    } else {
      await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
      this.port = (server.address() as { port: number }).port;
    }
    this.server = server;
  }

  close(): Promise<void> {
    return this.cut();
  }
}
