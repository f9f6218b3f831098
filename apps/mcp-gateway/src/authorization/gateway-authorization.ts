// Every keyed decision of the gateway, asked of identity and failing closed.
import { Inject, Injectable } from '@nestjs/common';
import { AuthorizationClient } from '@stdreg/authz-client';
import type { Action, DecisionSubjectDto } from '@stdreg/contracts';
import type { McpCaller } from '../caller/caller';

export type OrganizationReadAction = Extract<
  Action,
  'organization:read' | 'split-project:read' | 'settlement-run:read' | 'equity-ledger:read' | 'split-project:draft'
>;

export type Authorized = { ok: true; subject: DecisionSubjectDto; organizationId: string | null } | { ok: false; message: string };

@Injectable()
export class GatewayAuthorization {
  constructor(@Inject(AuthorizationClient) private readonly client: AuthorizationClient) {}

  /** A tool call needs a credential identity accepts (action tool:call). */
  toolCall(caller: McpCaller): Promise<Authorized> {
    return this.ask(caller, 'tool:call', null);
  }

  /**
   * Something inside one organization: the organization the caller names (X-Organization-Id), or else
   * the key's own, learned from identity's answer to tool:call.
   */
  async inOrganization(caller: McpCaller, action: OrganizationReadAction, organizationId?: string): Promise<Authorized> {
    if (caller.organizationHeaderInvalid) return { ok: false, message: 'X-Organization-Id must be an organization id (uuid).' };
    let organization = organizationId ?? caller.organizationId;
    if (!organization) {
      const who = await this.toolCall(caller);
      if (!who.ok) return who;
      organization = who.subject.organizationId ?? null;
      if (!organization)
        return {
          ok: false,
          message: 'Name the organization with the X-Organization-Id header: this credential has no organization of its own.',
        };
    }
    return this.ask(caller, action, organization);
  }

  private async ask(caller: McpCaller, action: Action, organizationId: string | null): Promise<Authorized> {
    if (!caller.credential) {
      return { ok: false, message: 'An API key is required: send Authorization: Bearer <key>.' };
    }
    const answer = await this.client.ask({ credential: caller.credential, action, resource: organizationId ? { organizationId } : {} });
    if (answer.decision === 'allow') return { ok: true, subject: answer.subject, organizationId };
    if (answer.unavailable)
      return { ok: false, message: 'Authorization could not be established (identity unavailable); nothing was done. Retry later.' };
    return { ok: false, message: `Not allowed (${action}): ${answer.reason}.` };
  }
}
