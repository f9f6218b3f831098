import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter, then random bits; sorts by
 * creation time within this process, ids of one millisecond too (RFC 9562 6.2, method 1). The counter
 * starts at a random value below 2048 each millisecond; when it runs out, or the clock steps back, the
 * last millisecond is carried on.
 */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16);
  if (now > lastMs) {
    lastMs = now;
    counter = bytes.readUInt16BE(6) & 0x7ff;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes.writeUInt16BE(0x7000 | counter, 6);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A UUID in its canonical text form (either case) as RFC 9562 defines them: versions 1 to 8 with its variant, nil
 * and max. The same as class-validator's `IsUUID`, so an id this takes is one no DTO, and no question to identity,
 * refuses further on.
 */
export const UUID_PATTERN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
