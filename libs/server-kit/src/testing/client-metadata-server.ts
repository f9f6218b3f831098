// Where an agent publishes its Client ID Metadata Document: a local HTTPS server with a certificate of
// the test CA, so the client id is an https URL that identity fetches (and trusts through the CA).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCa } from './test-ca';

export interface ClientMetadataServer {
  /** The https URL of `path` on this server: a client id once a document is published there. */
  url(path: string): string;
  /** Serves `document` as JSON at `path`; `delayMs` holds the answer back that long after the headers. */
  publish(path: string, document: Record<string, unknown>, options?: { delayMs?: number }): void;
  /** Answers `path` with a 302 to `location` (a document moved, or a URL shortener). */
  redirect(path: string, location: string): void;
  /** The paths fetched so far, in order (who asked is identity: nothing else knows the server). */
  readonly fetched: string[];
  close(): Promise<void>;
}

export async function startClientMetadataServer(ca: TestCa, host = '127.0.0.1'): Promise<ClientMetadataServer> {
  const documents = new Map<string, { body: string; delayMs: number }>();
  const redirects = new Map<string, string>();
  const fetched: string[] = [];
  const server: Server = createServer({ ...(await ca.issueServerCertificate([host, 'localhost', '127.0.0.1'])) }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://here.invalid').pathname;
    fetched.push(path);
    const location = redirects.get(path);
    if (location !== undefined) return void response.writeHead(302, { location }).end();
    const document = request.method === 'GET' ? documents.get(path) : undefined;
    if (document === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('no such client');
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).flushHeaders();
    const timer = setTimeout(() => response.end(document.body), document.delayMs);
    response.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `https://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${origin}${path}`,
    publish: (path, document, options) => void documents.set(path, { body: JSON.stringify(document), delayMs: options?.delayMs ?? 0 }),
    redirect: (path, location) => void redirects.set(path, location),
    fetched,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
