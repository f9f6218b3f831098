export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

export type PasswordProblem = 'too_short' | 'too_long' | 'contains_email' | 'too_simple';

/**
 * What a password must be: 12 to 128 characters, not containing the email or its name part, at least 5
 * different characters; judged in NFKC, the form that is hashed, where different characters may be one. Spaces in a
 * row count as one towards the 12 (ASVS 4.0.3 V2.1.1), though every one of them is part of the password.
 */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const hashed = password.normalize('NFKC');
  const characters = [...hashed];
  if ([...hashed.replace(/\s+/gu, ' ')].length < MIN_PASSWORD_LENGTH) return 'too_short';
  if (characters.length > MAX_PASSWORD_LENGTH) return 'too_long';
  const lower = hashed.toLowerCase();
  const address = email.normalize('NFKC').toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  if (lower.includes(address) || (localPart.length >= 4 && lower.includes(localPart))) return 'contains_email';
  if (new Set(characters).size < 5) return 'too_simple';
  return null;
}
