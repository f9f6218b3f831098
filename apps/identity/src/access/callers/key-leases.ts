import type { KeyCaller } from './caller';
import { Leases } from './leases';

/** What a decision needs of a key, as read from the database at the start of a lease. */
export interface LeasedCredential {
  caller: KeyCaller;
  secretHash: Buffer;
  /** When the secret stops working (a rotated key's previous secret), epoch ms on this replica's wall clock; null while current. */
  secretExpiresAtMs: number | null;
}

/**
 * Leases on key credentials by key prefix, for the decision endpoint (KEY_LEASE_MS). Revoking or
 * rotating a key answers only after `outlastKey`.
 */
export class KeyLeases extends Leases<LeasedCredential> {
  outlastKey(keyId: string): Promise<void> {
    return this.outlast((credential) => credential.caller.keyId === keyId);
  }
}
