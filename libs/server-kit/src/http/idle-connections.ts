import type { Server } from 'node:http';

/**
 * How long the server keeps an idle keep-alive connection open. Node's default is 5 s, shorter than what
 * clients and proxies in front of a service keep one idle: a load balancer's 60 s, or a pool whose own
 * timer could not fire while its event loop was busy. A request they send just as the server closes the
 * connection fails ("other side closed") without reaching the service. Past a minute, the client closes first.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 65_000;

export function keepIdleConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = IDLE_CONNECTION_TIMEOUT_MS;
}
