/** The request header of a keyed write (standards-api's protected POSTs). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** `true` on an answer standards-api replayed for a repeated Idempotency-Key: nothing was written this time. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
