import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { addressPolicy, judgeAddress, parseAddress, PUBLIC_ONLY, type AddressJudgement, type ReachPolicy } from './address-policy';

type ProviderFetch = (url: URL | string | Request, options?: RequestInit) => Promise<Response>;

/** An address on the public internet, in any spelling, including an IPv6 form carrying a public IPv4 address (address-policy.ts). */
export function isPublicAddress(address: string): boolean {
  return judgeAddress(address, PUBLIC_ONLY).reachable;
}

/** A loopback address: 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6 (the socket connects to it over IPv4). */
export function isLoopbackAddress(address: string): boolean {
  return judgeAddress(address, PUBLIC_ONLY).category === 'loopback';
}

export class SpecialUseAddressError extends Error {
  /** The refused address and why, when one was (a name may also resolve to nothing). */
  constructor(
    readonly host: string,
    readonly address?: string,
    readonly why?: string,
  ) {
    super(`${host} is not a public address${address === undefined ? '' : address === host ? ` (${why})` : ` (${address}: ${why})`}`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** How a name is resolved: node's `dns.lookup` with `all: true`, or a stand-in in tests. */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Which addresses a connection may reach, and why not (address-policy.ts). */
export type AddressPolicy = (address: string) => AddressJudgement;

/**
 * A socket lookup that resolves as the socket would, and refuses a name if any address it resolves to
 * is outside the policy: the address checked is the address connected to.
 */
export function checkingLookup(allowed: AddressPolicy, resolve: Resolver = systemLookup as unknown as Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(new SpecialUseAddressError(hostname), []);
      for (const { address } of addresses) {
        const judged = allowed(address);
        if (!judged.reachable) return callback(new SpecialUseAddressError(hostname, address, judged.why), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first!.address, first!.family);
    });
  };
}

/** A host named by a literal address never reaches the lookup: it is judged here. */
function refusedLiteral(allowed: AddressPolicy, hostname: string): SpecialUseAddressError | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0 && parseAddress(host) === null) return undefined;
  const judged = allowed(host);
  return judged.reachable ? undefined : new SpecialUseAddressError(host, host, judged.why);
}

/** Refuses a URL whose host is a literal address outside the policy, before any connection. */
export function refuseLiteralOutside(allowed: AddressPolicy, url: string): void {
  const refused = refusedLiteral(allowed, new URL(url).hostname);
  if (refused) throw refused;
}

/**
 * Connects only to the addresses the policy allows, checked for every connection whatever led to it (a redirect
 * too): a host named by a literal address before connecting (the socket looks nothing up for it), a name as it
 * resolves (checkingLookup).
 */
export function checkingConnector(
  allowed: AddressPolicy,
  options: { resolve?: Resolver; timeoutMs?: number } = {},
): buildConnector.connector {
  const connect = buildConnector({ lookup: checkingLookup(allowed, options.resolve), timeout: options.timeoutMs });
  return (target, callback) => {
    const refused = refusedLiteral(allowed, target.hostname);
    if (refused) return callback(refused, null);
    connect(target, callback);
  };
}

/**
 * A fetch for what identity reads on a client's word (a Client ID Metadata Document, a jwks_uri, a sector
 * identifier) that reaches only the addresses the policy allows, checked before a connection is made. The
 * provider's own check destroys the socket once connected, so a refused address would still see a
 * connection and a TLS handshake. A host named by a literal address is checked here and again as each
 * connection is made, as is a name as it resolves: a redirect (which the provider's fetches follow) reaches
 * only an address the policy allows, and the socket connects to the address that was checked. The
 * provider's time bound (its signal) and size bounds stay.
 */
function fetchWithin(policy: ReachPolicy): ProviderFetch {
  const allowed = addressPolicy(policy);
  const dispatcher = new Agent({ connect: checkingConnector(allowed) });
  return async (url, options) => {
    const target = url instanceof Request ? url.url : url;
    refuseLiteralOutside(allowed, target.toString());
    const { dispatcher: _providerCheck, ...rest } = options as RequestInit & { dispatcher?: unknown };
    return (await undiciFetch(target, { ...(rest as UndiciRequestInit), dispatcher })) as unknown as Response;
  };
}

/** Production: public addresses only. */
export const fetchFromPublicAddresses: ProviderFetch = fetchWithin(PUBLIC_ONLY);

/**
 * Development and tests (OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES): loopback and private networks too, so a
 * metadata document on a local https server can be read; link-local, the metadata addresses and every
 * other special-use address never, as for webhooks.
 */
export const fetchFromLocalAddresses: ProviderFetch = fetchWithin({ allowLoopback: true, allowPrivate: true });
