import ipaddr from 'ipaddr.js';

/**
 * The leading bits of an IPv6 address that name one client: a /64 is one subscriber's network (RFC 6177
 * hands a site at least that much), so its 2^64 addresses are one client to a per-address limit.
 */
const IPV6_CLIENT_PREFIX_GROUPS = 4;
/** RFC 6052's well-known NAT64 prefix, 64:ff9b::/96: the IPv4 client is in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** Text that is no address (no proxy in front to write one) keys its bucket by at most this much of itself. */
const MOST_TEXT = 64;

/**
 * The client a per-address bucket is kept for: an IPv4 address (however written, or carried in an
 * IPv4-mapped or well-known NAT64 IPv6 address) as itself, any other IPv6 address as its /64. Without the
 * /64, one IPv6 subscriber could take a new bucket for every request.
 */
export function clientAddressBucket(address: string | undefined): string {
  const text = address?.trim() ?? '';
  if (text === '') return 'unknown';
  if (!ipaddr.isValid(text)) return `text:${text.slice(0, MOST_TEXT)}`;
  const parsed = ipaddr.process(text);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.match(NAT64_WELL_KNOWN)) return ipaddr.fromByteArray(ipv6.toByteArray().slice(12)).toString();
  const prefix = [...ipv6.parts.slice(0, IPV6_CLIENT_PREFIX_GROUPS), 0, 0, 0, 0];
  return `${new ipaddr.IPv6(prefix).toRFC5952String()}/64`;
}
