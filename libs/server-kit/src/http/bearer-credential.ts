/**
 * The credential of an `Authorization: Bearer <credential>` header, or null when the header is missing or holds
 * anything but one bearer credential. The scheme is matched in any case and may be followed by several spaces
 * (RFC 9110 §11.1, RFC 6750 §2.1): OAuth clients commonly echo a token response's `token_type` of `bearer`.
 */
export function bearerCredential(authorization: string | undefined): string | null {
  const match = /^bearer +(\S+)$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}
