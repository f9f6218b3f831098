import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';

type ProviderFetch = (url: URL | string | Request, options?: RequestInit) => Promise<Response>;

/** An address on the public internet: not loopback, private, link-local, unique-local, shared, reserved or otherwise special-use. */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast';
}

export class SpecialUseAddressError extends Error {
  constructor(host: string) {
    super(`${host} is not a public address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves as the socket would, and refuses a name if any address it resolves to is not public. */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address)))
      return callback(new SpecialUseAddressError(hostname), []);
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
}

const publicAddressesOnly = new Agent({ connect: { lookup: publicLookup } });

/**
 * Everything identity fetches on a client's word (a Client ID Metadata Document, a jwks_uri, a sector
 * identifier): only from public addresses, checked before a connection is made. The provider's own
 * check destroys the socket once connected, so a private address would still see a connection and a
 * TLS handshake. A host named by a literal address is checked here; a name is checked as it resolves,
 * and the socket connects to the address that was checked. The provider's time bound (its signal)
 * and size bounds stay.
 */
export const fetchFromPublicAddresses: ProviderFetch = async (url, options) => {
  const target = url instanceof Request ? url.url : url;
  const host = new URL(target).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new SpecialUseAddressError(host);
  const { dispatcher: _providerCheck, ...rest } = options as RequestInit & { dispatcher?: unknown };
  return (await undiciFetch(target, { ...(rest as UndiciRequestInit), dispatcher: publicAddressesOnly })) as unknown as Response;
};

/**
 * Development and tests (OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES): any address, so a metadata document on a
 * local https server can be read. The time and size bounds stay.
 */
export const fetchFromAnyAddress: ProviderFetch = (url, options) => {
  const { dispatcher: _providerCheck, ...rest } = options as RequestInit & { dispatcher?: unknown };
  return fetch(url, rest);
};
