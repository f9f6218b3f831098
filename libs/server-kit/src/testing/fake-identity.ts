import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { credentialDigest, DECISION_SIGNATURE_HEADER, decisionSignature } from '@stdreg/contracts';

/** The misbehaving modes: each must end in 503 authorization_unavailable with nothing written. */
export const UNAVAILABLE_MODES = ['hang', 'error-500', 'garbage', 'maybe', 'impostor', 'foreign-answer'] as const;

/**
 * Every way identity can fail to give a usable answer, for the authorization fault matrix: the modes
 * above, identity's port closed (`refused`, through `switchTo`), an allow to another question of the same
 * person (`other-request`) or to the same question of another person (`other-subject`), a body dribbled
 * slower than any timeout (`slow-body`), a signed allow over 64 KiB (`huge-body`) and a body that never ends
 * (`endless-body`).
 */
export const FAULT_MODES = [
  'refused',
  ...UNAVAILABLE_MODES,
  'other-request',
  'other-subject',
  'slow-body',
  'huge-body',
  'endless-body',
] as const;

export type FaultMode = (typeof FAULT_MODES)[number];
export type FakeIdentityMode = 'decide' | 'deny' | FaultMode;

/**
 * A stand-in for identity's decision endpoint (and its organization read, for the gateway), answering as identity does (the question echoed, the
 * answer signed with the service's credential): in `decide` mode a credential is allowed in the
 * organization it names only (forms below, `decide`). The other modes misbehave the ways an outage
 * would, or the ways something else answering on identity's port would: `impostor` allows everything
 * without the service's credential to sign with, `foreign-answer` replays a genuine allow given to
 * another person in another organization.
 */
export class FakeIdentity {
  constructor(private readonly serviceToken = 'test-service-token-0123456789abcdef') {}

  mode: FakeIdentityMode = 'decide';
  questions: { action: string; resource: { organizationId?: string } }[] = [];
  private server!: Server;
  private port = 0;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Sets the mode; `refused` closes identity's port (connections refused) until another mode opens it again, at the same URL. */
  async switchTo(mode: FakeIdentityMode): Promise<void> {
    if (mode === 'refused' && this.server.listening) await this.stop();
    if (mode !== 'refused' && !this.server.listening) await this.start();
    this.mode = mode;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      if (this.mode === 'refused') return void request.socket.destroy();
      if (request.method === 'GET' && request.url?.startsWith('/v1/organizations/')) return this.organization(request, response);
      // Anything but a decision (a readiness probe's GET, say) is not found, as at identity's unknown paths.
      if (request.method !== 'POST') return void response.writeHead(404).end();
      if (this.mode === 'hang') return;
      if (this.mode === 'error-500') return void response.writeHead(500).end('{"decision":"allow"}');
      const question = JSON.parse(raw) as {
        credential: { kind: string; value: string };
        action: string;
        resource: { organizationId?: string; projectId?: string };
        nonce?: string;
        audience?: string;
        scope?: string;
      };
      this.questions.push({ action: question.action, resource: question.resource });
      const echo = {
        action: question.action,
        resource: question.resource,
        credentialDigest: credentialDigest(question.credential),
        nonce: question.nonce ?? null,
        ...(question.audience === undefined ? {} : { audience: question.audience }),
        ...(question.scope === undefined ? {} : { scope: question.scope }),
      };
      // Signed with the service's credential, so that only the client's reading of the body can refuse them.
      if (this.mode === 'garbage') return this.answer(response, '<html>');
      if (this.mode === 'maybe') return this.answer(response, { ...allowOf(question.credential.value), decision: 'maybe', question: echo });
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
      if (this.mode === 'other-request') {
        const otherAction = question.action === 'split-project:read' ? 'split-project:draft' : 'split-project:read';
        return this.answer(response, { ...allowOf(question.credential.value), question: { ...echo, action: otherAction } });
      }
      if (this.mode === 'other-subject') {
        const someoneElse = { kind: 'access_token', value: 'someone else' };
        return this.answer(response, {
          decision: 'allow',
          reason: 'role:settlement-approver',
          subject: { kind: 'human', id: 'someone-else' },
          question: { ...echo, credentialDigest: credentialDigest(someoneElse) },
        });
      }
      if (this.mode === 'slow-body' || this.mode === 'huge-body' || this.mode === 'endless-body') {
        return this.misshapenAnswer(response, { ...allowOf(question.credential.value), question: echo });
      }
      const decision =
        this.mode === 'decide'
          ? decide(question.credential.value, question.action, question.resource.organizationId, question.scope)
          : undefined;
      this.answer(response, { ...(decision ?? { decision: 'deny', reason: 'organization_mismatch', subject: null }), question: echo });
    });
  }

  /** identity's GET /v1/organizations/{id}: the organization, to anyone in `decide` mode. */
  private organization(request: IncomingMessage, response: ServerResponse): void {
    if (this.mode !== 'decide') return void response.writeHead(503).end();
    const id = decodeURIComponent(request.url!.slice('/v1/organizations/'.length));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, name: 'Studio', createdAt: new Date(0) }));
  }

  /**
   * A correctly signed allow to this very question, delivered badly: a byte every 50 ms (slower than
   * any decision timeout), padded past 64 KiB without a Content-Length, or followed by bytes without end.
   */
  private misshapenAnswer(response: ServerResponse, answer: Record<string, unknown>): void {
    const body = this.mode === 'huge-body' ? JSON.stringify({ ...answer, padding: 'x'.repeat(70 * 1024) }) : JSON.stringify(answer);
    const headers = { 'content-type': 'application/json', [DECISION_SIGNATURE_HEADER]: decisionSignature(this.serviceToken, body) };
    if (this.mode === 'huge-body') return void response.writeHead(200, headers).end(body);
    response.writeHead(200, { ...headers, ...(this.mode === 'slow-body' ? { 'content-length': Buffer.byteLength(body) } : {}) });
    let sent = 0;
    const timer = setInterval(
      () => {
        if (this.mode === 'slow-body') {
          response.write(body.slice(sent, sent + 1));
          if (++sent >= body.length) return void (clearInterval(timer), response.end());
        } else {
          response.write(' '.repeat(16 * 1024));
        }
      },
      this.mode === 'slow-body' ? 50 : 1,
    );
    response.on('close', () => clearInterval(timer));
  }

  private answer(response: ServerResponse, answer: Record<string, unknown> | string, signWith = this.serviceToken): void {
    const body = typeof answer === 'string' ? answer : JSON.stringify(answer);
    response
      .writeHead(200, { 'content-type': 'application/json', [DECISION_SIGNATURE_HEADER]: decisionSignature(signWith, body) })
      .end(body);
  }
}

/** An allow as `decide` would give it to anyone, naming the credential's holder. */
function allowOf(credential: string) {
  return { decision: 'allow', reason: 'role:settlement-approver', subject: { kind: 'human', id: `holder-of-${credential.slice(0, 24)}` } };
}

const FORMAL_ACTIONS = new Set(['split-project:activate', 'rule-version:create', 'settlement-run:post']);

/**
 * The credential forms, each acting in the organization it names:
 * - `member-of:<org>`: a person allowed everything but the formal actions (denied `role_required`);
 * - `member-<name>-of:<org>,<org>...`: the person `<name>` (subject `uid-<name>`), a member of each organization listed, acting in
 *   any of them with the same credential; allowed what `member-of` is;
 * - `approver-of:<org>`, `approver-<name>-of:<org>`: people with an approving role, allowed everything;
 * - `stdreg_app_<name>_of:<org>`: an App key, denied the formal actions (`human_required`), allowed tool:call (of no organization)
 *   as a key of `<org>`;
 * - `stdreg_misjudged_of:<org>`: a key identity wrongly allows everything, to exercise the services' own checks;
 * - `stdreg_agent_<name>_of:<org>`: an agent's key of `<org>` supervised by `supervisor-<name>` (subject kind `agent`): allowed
 *   what an App key is, denied the formal actions (`agent_delegated`);
 * - `stdreg_misjudged_agent_of:<org>`: an agent's key identity wrongly allows everything;
 * - `agent-token-<client>-for-<name>-of:<org>`: an agent client's token acting for the person `<name>` (subject kind `agent`, id
 *   the client's, supervisor `uid-<name>`), as identity resolves a token exchanged for the standards API: one client serves many
 *   people; allowed reads and drafts, denied the formal actions (`agent_delegated`).
 */
function decide(credential: string, action: string, organizationId: string | undefined, scope?: string) {
  const allow = (reason: string, kind: string, id: string) => ({ decision: 'allow', reason, subject: { kind, id } });
  const deny = (reason: string) => ({ decision: 'deny', reason, subject: null });
  // Agents' tokens, for the gateway's sign-in checks: one identity no longer accepts, and one holding the scopes it names.
  if (credential === 'agent-token-revoked') return deny('invalid_credential');
  const held = /^agent-token-holding:(.*)$/.exec(credential)?.[1]?.split(',');
  if (held !== undefined && action === 'tool:call') {
    const subject = { kind: 'agent', id: 'agent-client', supervisorId: 'supervisor-of-agent', scopes: held };
    const lacking = (scope ?? '').split(' ').filter((asked) => asked !== '' && !held.includes(asked));
    return lacking.length > 0 ? { ...deny('insufficient_scope'), subject } : { decision: 'allow', reason: 'agent_scopes', subject };
  }
  const member = /^member-of:(.+)$/.exec(credential)?.[1];
  if (member !== undefined && member === organizationId) {
    return FORMAL_ACTIONS.has(action) ? deny('role_required') : allow('role:project-owner', 'human', `uid-${member}`);
  }
  const person = /^member-([a-z0-9]+)-of:(.+)$/.exec(credential);
  if (person && organizationId !== undefined && person[2]!.split(',').includes(organizationId)) {
    return FORMAL_ACTIONS.has(action) ? deny('role_required') : allow('role:project-owner', 'human', `uid-${person[1]}`);
  }
  const approver = /^approver(?:-([a-z0-9]+))?-of:(.+)$/.exec(credential);
  if (approver && approver[2] === organizationId)
    return allow('role:settlement-approver', 'human', `${approver[1] ?? 'approver'}-${approver[2]}`);
  const appKey = /^stdreg_app_([a-z0-9]+)_of:(.+)$/.exec(credential);
  // The gateway asks tool:call without an organization, and learns the key's own from the subject.
  if (appKey && action === 'tool:call' && organizationId === undefined)
    return {
      decision: 'allow',
      reason: 'organization_key',
      subject: { kind: 'app_key', id: `key-${appKey[1]}`, organizationId: appKey[2] },
    };
  if (appKey && appKey[2] === organizationId) {
    return FORMAL_ACTIONS.has(action) ? deny('human_required') : allow('role:scenario-modeller', 'app_key', `key-${appKey[1]}`);
  }
  const agentKey = /^stdreg_agent_([a-z0-9]+)_of:(.+)$/.exec(credential);
  if (agentKey) {
    const name = agentKey[1]!;
    const organization = agentKey[2]!;
    const subject = { kind: 'agent', id: `key-agent-${name}`, organizationId: organization, supervisorId: `supervisor-${name}` };
    if (action === 'tool:call' && organizationId === undefined) return { decision: 'allow', reason: 'valid_key', subject };
    if (organization !== organizationId) return undefined;
    return FORMAL_ACTIONS.has(action)
      ? { ...deny('agent_delegated'), subject }
      : { decision: 'allow', reason: 'organization_key', subject };
  }
  const agentToken = /^agent-token-([a-z0-9]+)-for-([a-z0-9]+)-of:(.+)$/.exec(credential);
  if (agentToken && agentToken[3] === organizationId) {
    const subject = {
      kind: 'agent',
      id: `client-${agentToken[1]}`,
      supervisorId: `uid-${agentToken[2]}`,
      scopes: ['projects:read', 'projects:draft'],
    };
    return FORMAL_ACTIONS.has(action)
      ? { ...deny('agent_delegated'), subject }
      : { decision: 'allow', reason: 'agent_for_role:project-owner', subject };
  }
  const misjudgedAgent = /^stdreg_misjudged_agent_of:(.+)$/.exec(credential)?.[1];
  if (misjudgedAgent !== undefined && misjudgedAgent === organizationId) {
    const subject = { kind: 'agent', id: 'key-agent-misjudged', organizationId, supervisorId: 'supervisor-misjudged' };
    return { decision: 'allow', reason: 'organization_key', subject };
  }
  const misjudged = /^stdreg_misjudged_of:(.+)$/.exec(credential)?.[1];
  if (misjudged !== undefined && misjudged === organizationId) return allow('role:project-owner', 'app_key', 'key-misjudged');
  return undefined;
}
