import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KeyClass } from '@stdreg/contracts';

// `stdreg_<class>_<prefix>_<secret>`: the prefix (public, unique) finds the key, the secret proves it.
const KEY_FORMAT = /^stdreg_(app|platform)_([a-z2-7]{10})_([A-Za-z0-9_-]{43})$/;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export interface GeneratedKeySecret {
  secret: string;
  prefix: string;
  hash: Buffer;
}

export interface ParsedKey {
  keyClass: KeyClass;
  prefix: string;
}

export function generateKeySecret(keyClass: KeyClass): GeneratedKeySecret {
  const prefix = [...randomBytes(10)].map((byte) => BASE32[byte % 32]).join('');
  const secret = `stdreg_${keyClass}_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { secret, prefix, hash: hashKeySecret(secret) };
}

export function parseKey(presented: string): ParsedKey | null {
  const match = KEY_FORMAT.exec(presented);
  return match ? { keyClass: match[1] as KeyClass, prefix: match[2]! } : null;
}

/**
 * Keys are 256-bit random values, so a fast hash is as strong as a slow one here, and it keeps a
 * key check well under a millisecond (passwords, which people choose, get scrypt instead).
 */
export function hashKeySecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const presentedHash = hashKeySecret(presented);
  return presentedHash.length === storedHash.length && timingSafeEqual(presentedHash, storedHash);
}
