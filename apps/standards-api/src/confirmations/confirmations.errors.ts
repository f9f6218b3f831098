import { DomainError } from '@stdreg/server-kit';

// Token refusals: a token that is not the caller's is 403 (and stays unspent, so nobody can burn another
// person's token); a token that was the caller's but can no longer be used is 409.
export const tokenNotYours = () =>
  DomainError.of(
    'confirmations.token_not_yours',
    'The confirmation token was not issued to you for this project and action. Ask for a new challenge by calling without a token.',
  );
export const tokenUsed = () =>
  DomainError.of(
    'confirmations.token_used',
    'The confirmation token has already been used. Ask for a new challenge by calling without a token.',
  );
export const tokenExpired = () =>
  DomainError.of('confirmations.token_expired', 'The confirmation token has expired. Ask for a new challenge by calling without a token.');
export const tokenForOtherRequest = (what: string) =>
  DomainError.of('confirmations.token_for_other_request', `The confirmation token confirms another ${what} than this request names.`);

/** The 428 that carries a challenge: what the caller is asked to confirm, and the token that confirms it. */
export const confirmationRequired = (what: string, challenge: object, confirmationToken: string) =>
  DomainError.of(
    'confirmations.required',
    `${what} needs your explicit confirmation: review the challenge, then call again with confirmationToken.`,
    { headers: undefined, extensions: { challenge, confirmationToken } },
  );
