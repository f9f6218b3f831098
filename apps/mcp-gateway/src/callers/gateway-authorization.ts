// Every keyed decision of the gateway, asked of identity and failing closed.
import { Inject, Injectable } from '@nestjs/common';
import { AuthorizationClient } from '@stdreg/authz-client';
import { INVALID_CREDENTIAL, type Action, type AgentScope, type DecisionSubjectDto, type ForwardedCredentialDto } from '@stdreg/contracts';
import type { McpCaller } from './caller';
import {
  AUTHORIZATION_UNAVAILABLE,
  CREDENTIAL_REQUIRED,
  HEADER_NOT_AN_ORGANIZATION,
  NO_ORGANIZATION_OF_ITS_OWN,
  notAllowed,
  type CallerRefusal,
} from './callers.errors';

export type OrganizationReadAction = Extract<
  Action,
  'organization:read' | 'split-project:read' | 'settlement-run:read' | 'equity-ledger:read'
>;

export type Authorized = { ok: true; subject: DecisionSubjectDto; organizationId: string | null } | CallerRefusal;

/** The organization a call acts in: the one X-Organization-Id names, else the key's own; or why there is none. */
export type ActingOrganization = { ok: true; organizationId: string } | CallerRefusal;

/** A caller identity allowed tool:call for, as that one answer described them. */
export interface AuthorizedCaller {
  credential: ForwardedCredentialDto;
  organization: ActingOrganization;
  subject: DecisionSubjectDto;
}

export type ToolCallAuthorization = { ok: true; caller: AuthorizedCaller } | CallerRefusal;

/** What identity said of an agent's token before its request ran: admitted, or why not. */
export type Admission =
  | { kind: 'admitted'; subject: DecisionSubjectDto }
  | { kind: 'invalid_token' }
  | { kind: 'insufficient_scope'; held: readonly string[] }
  | { kind: 'refused'; message: string };

function actingOrganization(caller: McpCaller, subject: DecisionSubjectDto): ActingOrganization {
  if (caller.organizationHeaderInvalid) return HEADER_NOT_AN_ORGANIZATION;
  const organizationId = caller.organizationId ?? subject.organizationId ?? null;
  return organizationId ? { ok: true, organizationId } : NO_ORGANIZATION_OF_ITS_OWN;
}

@Injectable()
export class GatewayAuthorization {
  constructor(@Inject(AuthorizationClient) private readonly client: AuthorizationClient) {}

  /**
   * A tool call needs a credential identity accepts (action tool:call), asked afresh for every call of a
   * tool that may change something; for a read-only tool an allow may be reused for AUTHZ_READ_CACHE_MS.
   * The answer also names the key's own organization, so a tool acting in it needs no second ask to learn it.
   */
  async toolCall(caller: McpCaller, tool: { scope?: AgentScope; readOnly: boolean } = { readOnly: false }): Promise<ToolCallAuthorization> {
    const { credential } = caller;
    if (!credential) return CREDENTIAL_REQUIRED;
    if (caller.admitted) {
      return { ok: true, caller: { credential, organization: actingOrganization(caller, caller.admitted), subject: caller.admitted } };
    }
    // An agent's token not admitted beforehand (identity was away then) is asked with the tool's scope.
    const scope = credential.kind === 'access_token' ? tool.scope : undefined;
    const allowed = await this.ask(credential, 'tool:call', null, { readOnly: tool.readOnly, ...(scope ? { scope } : {}) });
    if (!allowed.ok) return allowed;
    return { ok: true, caller: { credential, organization: actingOrganization(caller, allowed.subject), subject: allowed.subject } };
  }

  /**
   * Something inside one organization: the organization the caller names (X-Organization-Id), or else
   * the key's own, learned from identity's answer to tool:call.
   */
  async inOrganization(caller: McpCaller, action: OrganizationReadAction, organizationId?: string): Promise<Authorized> {
    if (caller.organizationHeaderInvalid) return HEADER_NOT_AN_ORGANIZATION;
    let organization = organizationId ?? caller.organizationId;
    if (!organization) {
      const who = await this.toolCall(caller);
      if (!who.ok) return who;
      if (!who.caller.organization.ok) return who.caller.organization;
      organization = who.caller.organization.organizationId;
    }
    if (!caller.credential) return CREDENTIAL_REQUIRED;
    return this.ask(caller.credential, action, organization);
  }

  /**
   * An agent's token, asked once for its whole request: tool:call with every scope the request's
   * operations need, so a missing scope or a dead token is answered with HTTP 403 or 401 before anything runs.
   * Only a request that drafts asks afresh every time; the allow of one that only reads may be reused for
   * AUTHZ_READ_CACHE_MS (the scopes are part of the question, so a reused allow covers the same scopes).
   */
  async admit(credential: ForwardedCredentialDto, scopes: readonly string[]): Promise<Admission> {
    const answer = await this.client.ask({
      credential,
      action: 'tool:call',
      resource: {},
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
      // A request that only reads (lists, reads, read-only tools) may reuse an allow, as a key's read-only tool call does.
      ...(scopes.includes('projects:draft') ? {} : { readOnly: true }),
    });
    if (answer.decision === 'allow') return { kind: 'admitted', subject: answer.subject };
    if (answer.unavailable) return { kind: 'refused', message: AUTHORIZATION_UNAVAILABLE.message };
    if (answer.reason === INVALID_CREDENTIAL) return { kind: 'invalid_token' };
    if (answer.reason === 'insufficient_scope') return { kind: 'insufficient_scope', held: answer.subject?.scopes ?? [] };
    return { kind: 'refused', message: `Not allowed (tool:call): ${answer.reason}.` };
  }

  private async ask(
    credential: ForwardedCredentialDto,
    action: Action,
    organizationId: string | null,
    options: { scope?: string; readOnly?: boolean } = {},
  ): Promise<Authorized> {
    const answer = await this.client.ask({
      credential,
      action,
      resource: organizationId ? { organizationId } : {},
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...(options.readOnly ? { readOnly: true } : {}),
    });
    if (answer.decision === 'allow') return { ok: true, subject: answer.subject, organizationId };
    if (answer.unavailable) return AUTHORIZATION_UNAVAILABLE;
    return notAllowed(action, answer.reason);
  }
}
