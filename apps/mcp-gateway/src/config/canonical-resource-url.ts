/**
 * A resource URL in the one form the gateway publishes and compares: scheme and host in lower case, no
 * default port, no trailing slash, no query or fragment (RFC 8707 §2: a resource indicator has no
 * fragment; the path keeps its case, which is significant).
 */
export function canonicalResourceUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}
