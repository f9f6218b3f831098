// Who is calling, for one POST /mcp: the caller the request names, and whether identity admits an agent's
// token for what the request asks; or the refusal (401 or 403) with the challenge that tells an agent what to do.
import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { AGENT_SCOPES, MAX_CREDENTIAL_LENGTH, type AgentScope } from '@stdreg/contracts';
import { ProtectedResourceService } from '../protected-resource/protected-resource.service';
import { callerOf, type McpCaller } from './caller';
import { credentialMissing, credentialTooLong, scopeInsufficient, tokenInvalid, type AuthenticationRefusal } from './callers.errors';
import { GatewayAuthorization } from './gateway-authorization';

export type Authentication = { ok: true; caller: McpCaller } | AuthenticationRefusal;

/** What a request asks, read from its body (mcp/request-operations.ts): whether it needs a credential, and which scopes. */
export interface AskedOperations {
  needsCredential: boolean;
  listsTools: boolean;
  scopes: readonly AgentScope[];
}

/**
 * Two steps, because the tool-call rate limit runs between them and counts against the credential the
 * first one let through: `identify` before anything is counted, `authenticate` once the body is known.
 */
@Injectable()
export class CallerAuthentication {
  constructor(
    private readonly authorization: GatewayAuthorization,
    private readonly protectedResource: ProtectedResourceService,
  ) {}

  /** The caller the request names; a credential longer than any the platform issues goes no further. */
  identify(request: IncomingMessage & { ip?: string | undefined }): Authentication {
    const caller = callerOf(request);
    if (caller.credential && caller.credential.value.length > MAX_CREDENTIAL_LENGTH) {
      return credentialTooLong(this.protectedResource.challenge({ error: 'invalid_token', scopes: AGENT_SCOPES }));
    }
    return { ok: true, caller };
  }

  /**
   * The caller the request's operations run as. Without a credential, only what needs none; an agent's
   * token is asked of identity once for the whole request, with every scope its operations need, so a dead
   * token or a missing scope is refused before anything runs. identity away is no refusal here: each
   * operation asks again and answers for itself. An API key is asked per operation (GatewayAuthorization).
   */
  async authenticate(caller: McpCaller, operations: AskedOperations): Promise<Authentication> {
    if (!caller.credential && operations.needsCredential) {
      // Every agent scope: a client asks for exactly what the first challenge names, and one consent should serve the session.
      return credentialMissing(this.protectedResource.challenge({ scopes: AGENT_SCOPES }));
    }
    if (caller.credential?.kind !== 'access_token' || !(operations.needsCredential || operations.listsTools)) return { ok: true, caller };
    const admission = await this.authorization.admit(caller.credential, operations.scopes);
    switch (admission.kind) {
      case 'invalid_token':
        return tokenInvalid(this.protectedResource.challenge({ error: 'invalid_token', scopes: AGENT_SCOPES }));
      case 'insufficient_scope': {
        // The scopes the token holds and those it lacks: a client re-authorizes for exactly these, so nothing it had is lost.
        const scopes = AGENT_SCOPES.filter((scope) => admission.held.includes(scope) || operations.scopes.includes(scope));
        return scopeInsufficient(this.protectedResource.challenge({ error: 'insufficient_scope', scopes }), operations.scopes);
      }
      case 'admitted':
        return { ok: true, caller: { ...caller, admitted: admission.subject } };
      case 'refused':
        return { ok: true, caller };
    }
  }
}
