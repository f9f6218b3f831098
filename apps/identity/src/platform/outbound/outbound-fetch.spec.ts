import type { LookupAddress } from 'node:dns';
import { addressPolicy, PUBLIC_ONLY } from './address-policy';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkingLookup,
  fetchFromLocalAddresses,
  fetchFromPublicAddresses,
  isPublicAddress,
  SpecialUseAddressError,
} from './outbound-fetch';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::a9fe:a9fe',
    '::a00:7',
    '::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2852039166',
    '0x7f.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

// A client's metadata document or jwks_uri (OIDC) is fetched under the same decision, public addresses only.
describe("fetches on a client's word", () => {
  it.each(['https://[::a9fe:a9fe]/jwks', 'https://[::a00:7]/jwks', 'https://[::7f00:1]/jwks', 'https://2852039166/jwks'])(
    'refuse %s before any connection',
    async (url) => {
      await expect(fetchFromPublicAddresses(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow(
        new SpecialUseAddressError(new URL(url).hostname.replace(/^\[|\]$/g, '')).message,
      );
    },
  );

  it('refuse a name if any address it resolves to carries a special-use IPv4 address', async () => {
    const resolvingTo =
      (addresses: LookupAddress[]) =>
      (_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null, found: LookupAddress[]) => void) =>
        callback(null, addresses);
    const lookup = (address: string) =>
      new Promise<Error | null>((resolve) =>
        checkingLookup(
          addressPolicy(PUBLIC_ONLY),
          resolvingTo([
            { address: '8.8.8.8', family: 4 },
            { address, family: 6 },
          ]),
        )('client.example', { all: true }, (error) => resolve(error)),
      );
    expect((await lookup('::a00:7'))?.message).toBe(
      'client.example is not a public address (::a00:7: IPv4-compatible ::/96 (deprecated, RFC 4291 §2.5.5.1), carrying IPv4 10.0.0.7, private-use 10.0.0.0/8 (RFC 1918))',
    );
    expect(await lookup('64:ff9b::a9fe:a9fe')).toBeInstanceOf(SpecialUseAddressError);
    expect(await lookup('2606:4700:4700::1111')).toBeNull();
  });
});

// OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES (development and tests) lets a client's documents come from this machine
// or a private network, never from link-local or metadata addresses, however they are spelled.
describe("fetches on a client's word with private addresses allowed", () => {
  let server: Server;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => response.end('{"keys":[]}'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    'https://169.254.169.254/latest/meta-data',
    'https://[::ffff:a9fe:a9fe]/jwks',
    'https://[::a9fe:a9fe]/jwks',
    'https://2852039166/jwks',
    'https://[fd00:ec2::254]/jwks',
    'https://[fe80::1]/jwks',
    'https://100.64.0.1/jwks',
  ])('refuse %s before any connection', async (url) => {
    await expect(fetchFromLocalAddresses(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow(
      new SpecialUseAddressError(new URL(url).hostname.replace(/^\[|\]$/g, '')).message,
    );
  });

  it('follow a redirect only to an address the policy allows, checked as the redirect is followed', async () => {
    // 0.0.0.0 is never reached; a socket asked for it connects to this machine, where `elsewhere` listens.
    let reachedElsewhere = 0;
    const elsewhere = createServer((_request, response) => response.end('{"keys":[{"kid":"elsewhere"}]}'));
    elsewhere.on('connection', () => reachedElsewhere++);
    await new Promise<void>((resolve) => elsewhere.listen(0, '0.0.0.0', resolve));
    const elsewherePort = (elsewhere.address() as AddressInfo).port;
    const redirecting = createServer((request, response) => {
      const to = request.url === '/to-loopback' ? `http://127.0.0.1:${elsewherePort}/jwks` : `http://0.0.0.0:${elsewherePort}/jwks`;
      response.writeHead(302, { location: to }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const from = (path: string) => `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}${path}`;
    try {
      const refused = await fetchFromLocalAddresses(from('/to-unspecified'), { signal: AbortSignal.timeout(5000) }).catch(
        (error: unknown) => error,
      );
      expect((refused as Error & { cause?: unknown }).cause).toBeInstanceOf(SpecialUseAddressError);
      expect(reachedElsewhere).toBe(0);
      const followed = await fetchFromLocalAddresses(from('/to-loopback'), { signal: AbortSignal.timeout(5000) });
      expect(await followed.json()).toEqual({ keys: [{ kid: 'elsewhere' }] });
      expect(reachedElsewhere).toBe(1);
    } finally {
      await Promise.all([elsewhere, redirecting].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });

  it('reach a loopback server, which the public-only fetch refuses before connecting', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    await expect(fetchFromPublicAddresses(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow(SpecialUseAddressError);
    expect(connections).toBe(0);
    const response = await fetchFromLocalAddresses(url, { signal: AbortSignal.timeout(5000) });
    expect(await response.json()).toEqual({ keys: [] });
    expect(connections).toBe(1);
  });
});
