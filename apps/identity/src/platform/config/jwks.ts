import { createPrivateKey, type JsonWebKey } from 'node:crypto';

/** What is wrong with OIDC_JWKS as the provider's signing keys, or null: a private JWKS with distinct kids and an RSA key. */
export function jwksProblem(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'must be a JSON Web Key Set ({"keys":[...]})';
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'must be {"keys":[…]} with at least one key';
  const kids = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const jwk = (key ?? {}) as { kid?: unknown; d?: unknown };
    if (typeof jwk.kid !== 'string' || jwk.kid === '') return `key ${index} has no kid`;
    if (kids.has(jwk.kid)) return `key ${index}: kid ${jwk.kid} appears twice`;
    kids.add(jwk.kid);
    if (typeof jwk.d !== 'string') return `key ${jwk.kid} is not a private key`;
    try {
      createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    } catch {
      return `key ${jwk.kid} is not a valid JSON Web Key`;
    }
  }
  if (!keys.some((key: { kty?: unknown }) => key.kty === 'RSA'))
    return 'needs an RSA key: ID tokens are signed with RS256 unless a client asks otherwise';
  return null;
}
