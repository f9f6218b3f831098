import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { credentialDigest, DECISION_SIGNATURE_HEADER, decisionSignature } from '@stdreg/contracts';

export type FakeIdentityMode = 'decide' | 'deny' | 'hang' | 'error-500' | 'garbage' | 'maybe' | 'impostor' | 'foreign-answer';

/** The misbehaving modes: each must end in 503 authorization_unavailable with nothing written. */
export const UNAVAILABLE_MODES = ['hang', 'error-500', 'garbage', 'maybe', 'impostor', 'foreign-answer'] as const;

/**
 * A stand-in for identity's decision endpoint, answering as identity does (the question echoed, the
 * answer signed with the service's credential): in `decide` mode a credential is allowed in the
 * organization it names only (forms below, `decide`). The other modes misbehave the ways an outage
 * would, or the ways something else answering on identity's port would: `impostor` allows everything
 * without the service's credential to sign with, `foreign-answer` replays a genuine allow given to
 * another person in another organization.
 */
export class FakeIdentity {
  constructor(private readonly serviceToken = 'test-service-token') {}

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
      const question = JSON.parse(raw) as {
        credential: { kind: string; value: string };
        action: string;
        resource: { organizationId?: string; projectId?: string };
        nonce?: string;
      };
      this.questions.push({ action: question.action, resource: question.resource });
      const echo = {
        action: question.action,
        resource: question.resource,
        credentialDigest: credentialDigest(question.credential),
        nonce: question.nonce ?? null,
      };
      if (this.mode === 'impostor')
        return this.answer(
          response,
          { decision: 'allow', reason: 'role:project-owner', subject: { kind: 'human', id: 'someone-else' }, question: echo },
          'a guessed token',
        );
      if (this.mode === 'foreign-answer') {
        const foreign = {
          ...echo,
          resource: { organizationId: '01900000-0000-7000-8000-0000000000ff' },
          credentialDigest: credentialDigest({ kind: 'access_token', value: 'another person' }),
        };
        return this.answer(response, {
          decision: 'allow',
          reason: 'role:project-owner',
          subject: { kind: 'human', id: 'another-person' },
          question: foreign,
        });
      }
      const decision =
        this.mode === 'decide' ? decide(question.credential.value, question.action, question.resource.organizationId) : undefined;
      this.answer(response, { ...(decision ?? { decision: 'deny', reason: 'organization_mismatch', subject: null }), question: echo });
    });
  }

  private answer(response: ServerResponse, answer: Record<string, unknown>, signWith = this.serviceToken): void {
    const body = JSON.stringify(answer);
    response
      .writeHead(200, { 'content-type': 'application/json', [DECISION_SIGNATURE_HEADER]: decisionSignature(signWith, body) })
      .end(body);
  }
}

const FORMAL_ACTIONS = new Set(['split-project:activate', 'rule-version:create', 'settlement-run:post']);

/**
 * The credential forms, each acting in the organization it names:
 * - `member-of:<org>`: a person allowed everything but the formal actions (denied `role_required`);
 * - `approver-of:<org>`, `approver-<name>-of:<org>`: people with an approving role, allowed everything;
 * - `stdreg_app_<name>_of:<org>`: an App key, denied the formal actions (`human_required`);
 * - `stdreg_misjudged_of:<org>`: a key identity wrongly allows everything, to exercise the services' own checks.
 */
function decide(credential: string, action: string, organizationId: string | undefined) {
  const allow = (reason: string, kind: string, id: string) => ({ decision: 'allow', reason, subject: { kind, id } });
  const deny = (reason: string) => ({ decision: 'deny', reason, subject: null });
  const member = /^member-of:(.+)$/.exec(credential)?.[1];
  if (member !== undefined && member === organizationId) {
    return FORMAL_ACTIONS.has(action) ? deny('role_required') : allow('role:project-owner', 'human', `uid-${member}`);
  }
  const approver = /^approver(?:-([a-z0-9]+))?-of:(.+)$/.exec(credential);
  if (approver && approver[2] === organizationId)
    return allow('role:settlement-approver', 'human', `${approver[1] ?? 'approver'}-${approver[2]}`);
  const appKey = /^stdreg_app_([a-z0-9]+)_of:(.+)$/.exec(credential);
  if (appKey && appKey[2] === organizationId) {
    return FORMAL_ACTIONS.has(action) ? deny('human_required') : allow('role:scenario-modeller', 'app_key', `key-${appKey[1]}`);
  }
  const misjudged = /^stdreg_misjudged_of:(.+)$/.exec(credential)?.[1];
  if (misjudged !== undefined && misjudged === organizationId) return allow('role:project-owner', 'app_key', 'key-misjudged');
  return undefined;
}
