import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { BlockList, isIP, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { WebhookTransport } from '../../partners/webhooks/webhook-transport';
import { addressPolicy, judgeAddress, PUBLIC_ONLY, type ReachPolicy } from './address-policy';
import { checkingConnector, checkingLookup, fetchFromLocalAddresses, SpecialUseAddressError, type Resolver } from './outbound-fetch';

/*
 * A second, independent oracle for the address decision: Node's own `net.BlockList` filled with the
 * IANA special-purpose registries' blocks, written out here (not read from address-policy.ts or its
 * spec), and Node's `net.isIP` and the WHATWG URL parser for what is an address. The claim checked is
 * the security one: under PUBLIC_ONLY no special-purpose, private or loopback address is ever reached,
 * in any spelling a URL host or a resolver could give, through the decision itself and through the
 * paths that use it (a webhook URL, a name's lookup, a connection, a redirect); and public addresses are.
 */

const block = (entries: Array<[string, number]>, type: 'ipv4' | 'ipv6'): BlockList => {
  const list = new BlockList();
  for (const [network, prefix] of entries) list.addSubnet(network, prefix, type);
  return list;
};

/** IANA IPv4 Special-Purpose Address Registry, multicast (RFC 5771) and reserved 240/4: none of it is public. */
const V4_SPECIAL: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['255.255.255.255', 32],
];
/** The blocks a deployment may open (loopback, RFC 1918): every other special block is never reached. */
const V4_ALLOWABLE: Array<[string, number]> = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
];
const v4Special = block(V4_SPECIAL, 'ipv4');
const v4Allowable = block(V4_ALLOWABLE, 'ipv4');

/**
 * IANA IPv6 Special-Purpose Address Registry inside global unicast 2000::/3 (everything outside it is
 * not public), less the three blocks that carry an IPv4 address and are public when it is: Teredo
 * 2001::/32 (inside 2001::/23, so tested first), 6to4 2002::/16, and (outside 2000::/3) NAT64 64:ff9b::/96.
 */
const V6_SPECIAL_IN_GLOBAL: Array<[string, number]> = [
  ['2001:1::1', 128],
  ['2001:1::2', 128],
  ['2001:1::3', 128],
  ['2001:2::', 48],
  ['2001:3::', 32],
  ['2001:4:112::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:30::', 28],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
];
const v6SpecialInGlobal = block(V6_SPECIAL_IN_GLOBAL, 'ipv6');
const v6Global = block([['2000::', 3]], 'ipv6');
const TEREDO = block([['2001::', 32]], 'ipv6');
const SIX_TO_FOUR = block([['2002::', 16]], 'ipv6');
const NAT64 = block([['64:ff9b::', 96]], 'ipv6');
const MAPPED = block([['::ffff:0:0', 96]], 'ipv6');
/** Blocks a deployment may open for IPv6 (loopback, unique-local), less the AWS metadata address inside fc00::/7. */
const v6Allowable = block(
  [
    ['::1', 128],
    ['fc00::', 7],
  ],
  'ipv6',
);
const AWS_METADATA = 'fd00:ec2::254';

const groupsOf = (value: bigint): number[] =>
  Array.from({ length: 8 }, (_, index) => Number((value >> BigInt(112 - 16 * index)) & 0xffffn));
const v4Text = (value: number): string => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
const v6Text = (value: bigint): string =>
  groupsOf(value)
    .map((group) => group.toString(16))
    .join(':');
const low32 = (value: bigint): number => Number(value & 0xffffffffn);

const publicV4 = (value: number): boolean => !v4Special.check(v4Text(value), 'ipv4');

/** The oracle under PUBLIC_ONLY. */
function isPublic(address: { family: 4; value: number } | { family: 6; value: bigint }): boolean {
  if (address.family === 4) return publicV4(address.value);
  const text = v6Text(address.value);
  if (MAPPED.check(text, 'ipv6')) return publicV4(low32(address.value));
  if (NAT64.check(text, 'ipv6')) return publicV4(low32(address.value));
  if (!v6Global.check(text, 'ipv6')) return false;
  if (TEREDO.check(text, 'ipv6'))
    return publicV4(Number((address.value >> 64n) & 0xffffffffn)) && publicV4((low32(address.value) ^ 0xffffffff) >>> 0);
  if (v6SpecialInGlobal.check(text, 'ipv6')) return false;
  if (SIX_TO_FOUR.check(text, 'ipv6')) return publicV4(Number((address.value >> 80n) & 0xffffffffn));
  // ISATAP (RFC 5214 §6.1): interface identifier 0000:5efe or 0200:5efe, then the IPv4 address of the site's router.
  const identifier = Number((address.value >> 32n) & 0xffffffffn);
  if (identifier === 0x00005efe || identifier === 0x02005efe) return publicV4(low32(address.value));
  return true;
}

/** Never reached under any policy: special, and not loopback or private, nor reached through an allowance. */
function isNeverReached(address: { family: 4; value: number } | { family: 6; value: bigint }): boolean {
  if (isPublic(address)) return false;
  if (address.family === 4) return !v4Allowable.check(v4Text(address.value), 'ipv4');
  const text = v6Text(address.value);
  if (MAPPED.check(text, 'ipv6')) return !v4Allowable.check(v4Text(low32(address.value)), 'ipv4');
  if (text === v6Text(0xfd000ec2000000000000000000000254n)) return true;
  // An ISATAP identifier under a unique-local prefix may carry a private address; not asked here.
  return !v6Allowable.check(text, 'ipv6');
}

// ---- Addresses: inside every block, at its edges, just outside, and anywhere ----

type Address = { family: 4; value: number } | { family: 6; value: bigint };

const v4Value = (text: string): number => text.split('.').reduce((sum, byte) => sum * 256 + Number(byte), 0);
const v6Value = (text: string): bigint => {
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const all =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array<number>(8 - groups(head).length - groups(tail).length).fill(0), ...groups(tail)];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
};

const inside = (first: bigint, bits: number, width: number): fc.Arbitrary<bigint> => {
  const size = 1n << BigInt(width - bits);
  const base = (first >> BigInt(width - bits)) << BigInt(width - bits);
  const max = (1n << BigInt(width)) - 1n;
  return fc.oneof(
    fc.constant(base),
    fc.constant(base + size - 1n),
    fc.bigInt({ min: base, max: base + size - 1n }),
    fc.constant(base === 0n ? base : base - 1n),
    fc.constant(base + size > max ? max : base + size),
  );
};
const anyV4 = fc.oneof(
  fc.constantFrom(...V4_SPECIAL).chain(([network, bits]) => inside(BigInt(v4Value(network)), bits, 32).map(Number)),
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.constantFrom(v4Value('169.254.169.254'), v4Value('8.8.8.8'), v4Value('1.1.1.1')),
);
const V6_BLOCKS: Array<[string, number]> = [
  ...V6_SPECIAL_IN_GLOBAL,
  ['::', 128],
  ['::1', 128],
  ['::', 96],
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['100:0:0:1::', 64],
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  [AWS_METADATA, 128],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2000::', 3],
];
const bitsArb = (count: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(count)) - 1n });
const anyV6 = fc.oneof(
  fc.constantFrom(...V6_BLOCKS).chain(([network, bits]) => inside(v6Value(network), bits, 128)),
  bitsArb(128),
  // Forms that carry an IPv4 address, carrying one from any IPv4 block.
  anyV4.map((v4) => BigInt(v4)),
  anyV4.map((v4) => (0xffffn << 32n) | BigInt(v4)),
  anyV4.map((v4) => (0xffffn << 48n) | BigInt(v4)),
  anyV4.map((v4) => (0x64ff9bn << 96n) | BigInt(v4)),
  fc.tuple(anyV4, bitsArb(48)).map(([v4, fill]) => (0x64ff9b0001n << 80n) | (fill << 32n) | BigInt(v4)),
  fc.tuple(anyV4, bitsArb(80)).map(([v4, fill]) => (0x2002n << 112n) | (BigInt(v4) << 80n) | fill),
  fc
    .tuple(anyV4, anyV4, bitsArb(32))
    .map(([server, client, fill]) => (0x20010000n << 96n) | (BigInt(server) << 64n) | (fill << 32n) | BigInt(client)),
  fc
    .tuple(anyV4, fc.constantFrom(0x00005efen, 0x02005efen), bitsArb(61))
    .map(([v4, identifier, fill]) => (((0b001n << 61n) | fill) << 64n) | (identifier << 32n) | BigInt(v4)),
);
const anyAddress: fc.Arbitrary<Address> = fc.oneof(
  anyV4.map((value) => ({ family: 4 as const, value })),
  anyV6.map((value) => ({ family: 6 as const, value })),
);

// ---- Spellings ----

/** What a URL's host may say for an IPv4 address (WHATWG / inet_aton): 1-4 parts, decimal, octal, hex, padding, a trailing dot. */
const urlSpelling4 = (value: number): fc.Arbitrary<string> =>
  fc
    .record({
      parts: fc.integer({ min: 1, max: 4 }),
      radix: fc.array(fc.constantFrom('dec', 'oct', 'hex', 'HEX'), { minLength: 4, maxLength: 4 }),
      zeros: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
      dot: fc.boolean(),
    })
    .map(({ parts, radix, zeros, dot }) => {
      const numbers = Array.from({ length: parts - 1 }, (_, index) => Math.floor(value / 2 ** (24 - 8 * index)) % 256);
      numbers.push(value % 2 ** (8 * (5 - parts)));
      const text = numbers
        .map((number, index) => {
          const pad = '0'.repeat(zeros[index]!);
          if (radix[index] === 'oct') return `0${pad}${number.toString(8)}`;
          if (radix[index] === 'hex') return `0x${pad}${number.toString(16)}`;
          if (radix[index] === 'HEX') return `0X${pad}${number.toString(16).toUpperCase()}`;
          return String(number);
        })
        .join('.');
      return dot ? `${text}.` : text;
    });

/** RFC 4291 §2.2 text forms: padded or not, any case, `::` over any run of zeros, a dotted-quad tail. */
const spelling6 = (value: bigint): fc.Arbitrary<string> =>
  fc
    .record({
      dotted: fc.boolean(),
      compressAt: fc.option(fc.nat(), { nil: undefined }),
      pad: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    })
    .map(({ dotted, compressAt, pad, upper }) => {
      const groups = groupsOf(value);
      const count = dotted ? 6 : 8;
      const pieces = groups.slice(0, count).map((group, index) => {
        const hex = pad[index] ? group.toString(16).padStart(4, '0') : group.toString(16);
        return upper[index] ? hex.toUpperCase() : hex;
      });
      if (dotted) pieces.push(v4Text(low32(value)));
      const runs: Array<[number, number]> = [];
      for (let start = 0; start < count; start++)
        for (let end = start + 1; end <= count && groups[end - 1] === 0; end++) runs.push([start, end]);
      if (compressAt === undefined || runs.length === 0) return pieces.join(':');
      const [start, end] = runs[compressAt % runs.length]!;
      return `${pieces.slice(0, start).join(':')}::${pieces.slice(end).join(':')}`;
    });

/** How a URL could name the address as its host. */
const urlHost = (address: Address): fc.Arbitrary<string> =>
  address.family === 4
    ? fc.oneof(
        urlSpelling4(address.value),
        spelling6((0xffffn << 32n) | BigInt(address.value)).map((text) => `[${text}]`),
      )
    : spelling6(address.value).map((text) => `[${text}]`);

/** How a resolver could hand the address back: as Node's `isIP` reads it, with a zone, an IPv4 address also mapped. */
const resolverSpelling = (address: Address): fc.Arbitrary<LookupAddress> =>
  address.family === 4
    ? fc.oneof(
        fc.constant({ address: v4Text(address.value), family: 4 }),
        spelling6((0xffffn << 32n) | BigInt(address.value)).map((text) => ({ address: text, family: 6 })),
      )
    : fc
        .tuple(spelling6(address.value), fc.constantFrom('', '', '%eth0', '%2', '%en0.1'))
        .map(([text, zone]) => ({ address: `${text}${zone}`, family: 6 }));

const RUNS = Number(process.env['ADDRESS_RUNS'] ?? 2000);
const PERMISSIVE: ReachPolicy = { allowLoopback: true, allowPrivate: true };
const webhooks = (resolve?: Resolver) => new WebhookTransport({ ...PUBLIC_ONLY, timeoutMs: 1000, resolve });
const resolvingTo =
  (addresses: LookupAddress[]): Resolver =>
  (_host, _options, callback) =>
    callback(null, addresses);
const lookupError = (resolve: Resolver, all: boolean, policy: ReachPolicy = PUBLIC_ONLY) =>
  new Promise<Error | null>((done) => checkingLookup(addressPolicy(policy), resolve)('partner.example', { all }, (error) => done(error)));

describe('the oracle', () => {
  it("is Node's: its IPv4 and IPv6 blocks are Node's own subnets, and the spellings are addresses to Node and WHATWG", () => {
    expect(v4Special.rules).toHaveLength(V4_SPECIAL.length);
    expect(v6SpecialInGlobal.rules).toHaveLength(V6_SPECIAL_IN_GLOBAL.length);
    fc.assert(
      fc.property(
        anyAddress.chain((address) => fc.tuple(fc.constant(address), urlHost(address), resolverSpelling(address))),
        ([, host, resolved]) => {
          expect(new URL(`https://${host}/`).hostname).not.toBe('');
          expect(isIP(resolved.address)).toBe(resolved.family);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('under PUBLIC_ONLY, by an oracle built on net.BlockList', () => {
  it('reaches an address exactly when it is public, however a URL host spells it', () => {
    fc.assert(
      fc.property(
        anyAddress.chain((address) => fc.tuple(fc.constant(address), urlHost(address))),
        ([address, host]) => {
          expect([host, judgeAddress(host, PUBLIC_ONLY).reachable]).toEqual([host, isPublic(address)]);
          const canonical = new URL(`https://${host}/`).hostname;
          expect([canonical, judgeAddress(canonical, PUBLIC_ONLY).reachable]).toEqual([canonical, isPublic(address)]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('reaches an address exactly when it is public, however a resolver spells it (zones, IPv4-mapped)', () => {
    fc.assert(
      fc.property(
        anyAddress.chain((address) => fc.tuple(fc.constant(address), resolverSpelling(address))),
        ([address, resolved]) => {
          expect([resolved.address, judgeAddress(resolved.address, PUBLIC_ONLY).reachable]).toEqual([resolved.address, isPublic(address)]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('never reaches a special-use address that no allowance opens, whatever the policy allows', () => {
    fc.assert(
      fc.property(
        anyAddress.filter(isNeverReached).chain((address) => fc.tuple(urlHost(address), resolverSpelling(address))),
        ([host, resolved]) => {
          expect([host, judgeAddress(host, PERMISSIVE).reachable]).toEqual([host, false]);
          expect([resolved.address, judgeAddress(resolved.address, PERMISSIVE).reachable]).toEqual([resolved.address, false]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('through the paths that connect', () => {
  it('a webhook URL naming an address is refused exactly when the address is not public', async () => {
    const transport = webhooks();
    try {
      await fc.assert(
        fc.asyncProperty(
          anyAddress.chain((address) => fc.tuple(fc.constant(address), urlHost(address), fc.constantFrom('', ':8443'))),
          async ([address, host, port]) => {
            const url = `https://${host}${port}/hook`;
            const refusal = await transport.refusal(url);
            expect([url, refusal === null]).toEqual([url, isPublic(address)]);
            if (refusal !== null) expect(refusal).toContain('is not an address webhooks may reach');
          },
        ),
        { numRuns: RUNS / 2 },
      );
    } finally {
      await transport.close();
    }
  });

  it("a name is refused when any address it resolves to is not public, at registration and at the connection's lookup", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          anyAddress.chain((address) => fc.tuple(fc.constant(address), resolverSpelling(address))),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        async (resolved, all) => {
          const resolve = resolvingTo(resolved.map(([, spelled]) => spelled));
          const everyPublic = resolved.every(([address]) => isPublic(address));
          const error = await lookupError(resolve, all);
          expect([resolved.map(([, spelled]) => spelled.address), error === null]).toEqual([
            resolved.map(([, spelled]) => spelled.address),
            everyPublic,
          ]);
          if (error) expect(error).toBeInstanceOf(SpecialUseAddressError);
          const transport = webhooks(resolve);
          try {
            const refusal = await transport.refusal('https://partner.example/hook');
            expect(refusal === null).toBe(everyPublic);
          } finally {
            await transport.close();
          }
        },
      ),
      { numRuns: RUNS / 4 },
    );
  });

  it('the connector refuses a literal non-public host before any socket, and a name resolving to one at its lookup', async () => {
    let resolved: LookupAddress[] = [];
    const connect = checkingConnector(addressPolicy(PUBLIC_ONLY), { resolve: resolvingTo([]), timeoutMs: 1000 });
    const connectByName = checkingConnector(addressPolicy(PUBLIC_ONLY), {
      resolve: (_host, _options, callback) => callback(null, resolved),
      timeoutMs: 1000,
    });
    const attempt = (connector: typeof connect, hostname: string) =>
      new Promise<Error | null>((done) =>
        connector(
          { hostname, host: hostname, protocol: 'http:', port: '9', servername: undefined, localAddress: null },
          (error, socket) => {
            socket?.destroy();
            done(error);
          },
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        anyAddress.filter((address) => !isPublic(address)).chain((address) => fc.tuple(urlHost(address), resolverSpelling(address))),
        async ([host, spelled]) => {
          const hostname = new URL(`http://${host}/`).hostname;
          expect([hostname, await attempt(connect, hostname)]).toEqual([hostname, expect.any(SpecialUseAddressError)]);
          resolved = [spelled];
          expect([spelled.address, await attempt(connectByName, 'partner.example')]).toEqual([
            spelled.address,
            expect.any(SpecialUseAddressError),
          ]);
        },
      ),
      { numRuns: RUNS / 4 },
    );
  });

  describe('a redirect an OIDC fetch follows', () => {
    let redirecting: Server;
    let location = '';
    beforeAll(async () => {
      redirecting = createServer((_request, response) => response.writeHead(302, { location }).end());
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));

    it('is refused to an address no allowance opens, however the Location spells it', async () => {
      const from = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/jwks`;
      await fc.assert(
        fc.asyncProperty(anyAddress.filter(isNeverReached).chain(urlHost), async (host) => {
          location = `http://${host}:8443/jwks`;
          const failed = await fetchFromLocalAddresses(from, { signal: AbortSignal.timeout(2000) }).catch((error: unknown) => error);
          expect([location, (failed as { cause?: unknown }).cause]).toEqual([location, expect.any(SpecialUseAddressError)]);
        }),
        { numRuns: 60 },
      );
    });
  });
});
