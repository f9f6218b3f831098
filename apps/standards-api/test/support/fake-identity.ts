import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeIdentityMode = 'decide' | 'deny' | 'hang' | 'error-500' | 'garbage' | 'maybe';

/**
 * A stand-in for identity's decision endpoint: in `decide` mode a credential `member-of:<org>`
 * is allowed in that organization only; the other modes misbehave the ways a real outage would.
 */
export class FakeIdentity {
  mode: FakeIdentityMode = 'decide';
  questions: { action: string; resource: { organizationId?: string } }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      if (this.mode === 'hang') return;
      if (this.mode === 'error-500') return void response.writeHead(500).end('{"decision":"allow"}');
      if (this.mode === 'garbage') return void response.writeHead(200).end('<html>');
      if (this.mode === 'maybe') return void response.writeHead(200).end('{"decision":"maybe","reason":"?"}');
      const question = JSON.parse(raw) as { credential: { value: string }; action: string; resource: { organizationId?: string } };
      this.questions.push({ action: question.action, resource: question.resource });
      const member = /^member-of:(.+)$/.exec(question.credential.value)?.[1];
      const allowed = this.mode === 'decide' && member !== undefined && member === question.resource.organizationId;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          allowed
            ? { decision: 'allow', reason: 'role:project-owner', subject: { kind: 'human', id: `uid-${member}` } }
            : { decision: 'deny', reason: 'organization_mismatch', subject: null },
        ),
      );
    });
  }
}
