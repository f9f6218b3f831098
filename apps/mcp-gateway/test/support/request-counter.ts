// A pass-through in front of a service that sees every request on its way (bodies and headers pass
// unchanged both ways, so identity's signed answers still verify); and one that counts them.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PassThrough {
  /** Give this to a service in place of the real one's URL. */
  url: string;
  close(): Promise<void>;
}

export async function passThrough(serviceUrl: string, see: (method: string, path: string, body: Buffer) => void): Promise<PassThrough> {
  const service = new URL(serviceUrl);
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      see(incoming.method ?? '', incoming.url ?? '', body);
      const forwarded = request(
        {
          hostname: service.hostname,
          port: service.port,
          path: incoming.url,
          method: incoming.method,
          headers: { ...incoming.headers, host: service.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.writeHead(502).end());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RequestCounter extends PassThrough {
  /** `METHOD path` of every request passed on, in order: none, nothing reached the service. */
  requests: string[];
}

export async function countRequests(serviceUrl: string): Promise<RequestCounter> {
  const requests: string[] = [];
  return { requests, ...(await passThrough(serviceUrl, (method, path) => requests.push(`${method} ${path}`))) };
}
