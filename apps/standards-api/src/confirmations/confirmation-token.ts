// Single-use confirmation tokens: the caller sees the token once; only its sha256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

/** A fresh token for the caller and the sha256 under which it is stored; the token itself is never stored. */
export function newConfirmationToken(): { token: string; sha256: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, sha256: confirmationTokenSha256(token) };
}

export function confirmationTokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
