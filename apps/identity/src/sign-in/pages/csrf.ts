import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

const COOKIE = 'stdreg_csrf';

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * Double-submit CSRF protection for the sign-in and password forms: a random value in an HttpOnly,
 * SameSite=Strict cookie and the same value in the form; another site can neither read nor set it.
 */
export function csrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = cookieValue(req, COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  res.append('Set-Cookie', `${COOKIE}=${token}; Path=/v1; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
  return token;
}

export function csrfValid(req: Request, submitted: unknown): boolean {
  const expected = cookieValue(req, COOKIE);
  if (!expected || typeof submitted !== 'string') return false;
  // Compared as bytes: a value of as many characters may still have more bytes (timingSafeEqual throws then).
  const [given, wanted] = [Buffer.from(submitted), Buffer.from(expected)];
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
