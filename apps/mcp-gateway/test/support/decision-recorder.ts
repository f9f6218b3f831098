// A pass-through in front of identity that notes the action of every decision asked through it, and identity's own count.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DecisionRecorder {
  /** Give this to a service as IDENTITY_URL. */
  url: string;
  /** The actions asked through this recorder, in order. */
  actions: string[];
  close(): Promise<void>;
}

/** Bodies and headers pass unchanged both ways, so identity's signed answers still verify. */
export async function recordDecisions(identityUrl: string): Promise<DecisionRecorder> {
  const identity = new URL(identityUrl);
  const actions: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      if (incoming.method === 'POST' && incoming.url === '/v1/decisions') {
        actions.push((JSON.parse(body.toString('utf8')) as { action: string }).action);
      }
      const forwarded = request(
        {
          hostname: identity.hostname,
          port: identity.port,
          path: incoming.url,
          method: incoming.method,
          headers: { ...incoming.headers, host: identity.host },
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
    actions,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every decision identity has answered so far, whoever asked (its `authorization_decisions_total{side="decided"}`). */
export async function decisionsAnswered(identityUrl: string): Promise<number> {
  const text = await fetch(`${identityUrl}/metrics`).then((response) => response.text());
  return text
    .split('\n')
    .filter((line) => line.startsWith('authorization_decisions_total{side="decided"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
