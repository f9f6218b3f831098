// Every refusal of a caller, with its code from the contracts' catalogue: the words an agent reads and the code its program reads.
import { MAX_CREDENTIAL_LENGTH, type Action, type GatewayRefusalCode } from '@stdreg/contracts';

/** Why a caller was refused, in words and as a code (tools/call results and resources/read errors carry both). */
export interface CallerRefusal {
  ok: false;
  code: GatewayRefusalCode;
  message: string;
}

/**
 * A request refused before anything ran, over HTTP (401 or 403, mcp.errors.ts maps the code to the status):
 * `challenge` is the WWW-Authenticate value that tells an agent where to sign in and what to ask for.
 */
export interface AuthenticationRefusal extends CallerRefusal {
  code: Extract<GatewayRefusalCode, 'credential_too_long' | 'credential_required' | 'credential_invalid' | 'scope_insufficient'>;
  challenge: string;
}

const UNAVAILABLE = 'Authorization could not be established (identity unavailable); nothing was done. Retry later.';

export const CREDENTIAL_REQUIRED: CallerRefusal = {
  ok: false,
  code: 'credential_required',
  message: 'A credential is required: send Authorization: Bearer <API key or agent token>.',
};
export const AUTHORIZATION_UNAVAILABLE: CallerRefusal = { ok: false, code: 'authorization_unavailable', message: UNAVAILABLE };
export const HEADER_NOT_AN_ORGANIZATION: CallerRefusal = {
  ok: false,
  code: 'organization_header_invalid',
  message: 'X-Organization-Id must be an organization id (uuid).',
};
export const NO_ORGANIZATION_OF_ITS_OWN: CallerRefusal = {
  ok: false,
  code: 'organization_required',
  message: 'Name the organization with the X-Organization-Id header: this credential has no organization of its own.',
};
/** An organization resource whose read found no organization to act in (identity allowed none). */
export const NO_ORGANIZATION: CallerRefusal = { ok: false, code: 'organization_required', message: 'No organization.' };
/** identity reads organizations for keys only, and an agent's token goes nowhere but identity's decisions. */
export const ORGANIZATION_RECORD_NEEDS_KEY: CallerRefusal = {
  ok: false,
  code: 'not_allowed',
  message: "An organization's record is read with an API key; an agent reads its projects, runs and ledgers.",
};

export function notAllowed(action: Action, reason: string): CallerRefusal {
  return { ok: false, code: 'not_allowed', message: `Not allowed (${action}): ${reason}.` };
}

export function credentialTooLong(challenge: string): AuthenticationRefusal {
  return {
    ok: false,
    code: 'credential_too_long',
    message: `The credential is longer than any the platform issues (${MAX_CREDENTIAL_LENGTH} characters).`,
    challenge,
  };
}

export function credentialMissing(challenge: string): AuthenticationRefusal {
  return {
    ok: false,
    code: 'credential_required',
    message: 'A credential is required: an API key, or an agent token from identity (see WWW-Authenticate).',
    challenge,
  };
}

export function tokenInvalid(challenge: string): AuthenticationRefusal {
  return {
    ok: false,
    code: 'credential_invalid',
    message: 'The token is not valid for this gateway (expired, revoked, or issued for another resource).',
    challenge,
  };
}

export function scopeInsufficient(challenge: string, needed: readonly string[]): AuthenticationRefusal {
  return {
    ok: false,
    code: 'scope_insufficient',
    message: `The token lacks the scope this request needs: ${needed.join(' ')}.`,
    challenge,
  };
}
