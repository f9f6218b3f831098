import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  webhookId: string;
  signature: string;
  body: string;
  /** The verified event (the body parsed after `standardwebhooks` accepted its signature). */
  event: {
    id: string;
    type: string;
    organizationId: string;
    actor: { kind: string; id: string };
    version: number;
    data: Record<string, unknown>;
  };
}

/**
 * A partner's receiving server on 127.0.0.1: every request's signature is verified with the
 * `standardwebhooks` package and a secret set per path; what fails verification is refused (400) and
 * counted. A path can be told to answer with another status.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly unverified: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly answers = new Map<string, { status: number; body?: string; headers?: Record<string, string> }>();
  private readonly delays = new Map<string, number>();
  private readonly held = new Map<string, (() => void)[]>();
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        const secret = this.secrets.get(path);
        let event: ReceivedWebhook['event'];
        try {
          if (!secret) throw new Error('no secret for this path');
          event = new Webhook(secret).verify(body, request.headers as Record<string, string>) as ReceivedWebhook['event'];
        } catch {
          this.unverified.push({ path, headers: request.headers });
          response.writeHead(400).end('signature not verified');
          return;
        }
        this.received.push({
          path,
          webhookId: String(request.headers['webhook-id']),
          signature: String(request.headers['webhook-signature']),
          body,
          event,
        });
        const answer = this.answers.get(path) ?? { status: 204 };
        const send = () => setTimeout(() => response.writeHead(answer.status, answer.headers).end(answer.body), this.delays.get(path) ?? 0);
        const waiting = this.held.get(path);
        if (waiting) waiting.push(send);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The secret `standardwebhooks` verifies this path's requests with. */
  expect(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  answer(path: string, status: number, body?: string, headers?: Record<string, string>): void {
    this.answers.set(path, { status, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
  }

  /** Answers this path's requests only after `ms` (a slow receiver). */
  delay(path: string, ms: number): void {
    this.delays.set(path, ms);
  }

  /** Holds this path's answers (the requests stay on the wire) until `release`. */
  hold(path: string): void {
    this.held.set(path, []);
  }

  /** Answers what was held, and from now on answers at once. */
  release(path: string): void {
    const waiting = this.held.get(path) ?? [];
    this.held.delete(path);
    for (const send of waiting) send();
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((entry) => entry.path === path);
  }

  /**
   * The received events that do not match their type's request body in an OpenAPI document's `webhooks`
   * (or whose type it does not list), with the validator's complaint.
   */
  notMatching(document: { webhooks?: Record<string, unknown> }): { type: string; problem: string }[] {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
    const problems: { type: string; problem: string }[] = [];
    for (const { event, body } of this.received) {
      const operation = document.webhooks?.[event.type] as
        { post: { requestBody: { content: { 'application/json': { schema: object } } } } } | undefined;
      if (!operation) {
        problems.push({ type: event.type, problem: 'not in the document' });
        continue;
      }
      const validate = ajv.compile(operation.post.requestBody.content['application/json'].schema);
      if (!validate(JSON.parse(body))) problems.push({ type: event.type, problem: ajv.errorsText(validate.errors) });
    }
    return problems;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
