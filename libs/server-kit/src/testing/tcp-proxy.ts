import { createServer, Socket, type Server } from 'node:net';

/**
 * A TCP proxy in front of a real dependency (PostgreSQL, Redis) that a test can cut and restore,
 * to see what a service does while the dependency is away. `url` is the target URL re-pointed at the proxy.
 */
export class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  /** Proxies to the host and port of `targetUrl` (e.g. postgres://…@127.0.0.1:5432/db). */
  static async start(targetUrl: string): Promise<CuttableProxy> {
    const url = new URL(targetUrl);
    const proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port) });
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
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The dependency comes back on the same port. */
  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      upstream.connect(this.target.port, this.target.host);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  close(): Promise<void> {
    return this.cut();
  }
}
