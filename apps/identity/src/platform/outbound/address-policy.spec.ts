import fc from 'fast-check';
import { judgeAddress, parseAddress, type ReachPolicy } from './address-policy';

/*
 * The expected decision, written by hand from the registries, not from address-policy.ts:
 * IANA IPv4 Special-Purpose Address Registry, IPv4 Multicast Address Space (RFC 5771), IANA IPv6
 * Special-Purpose Address Registry and IPv6 Address Space. `iana` is the registry's "Globally
 * Reachable" column ('-': the block is not in a special-purpose registry). `verdict` is the
 * platform's choice (docs/decisions.md, issue 27):
 *   public             reached under every policy
 *   loopback, private  reached only where the policy allows it
 *   never              refused under every policy (every registry block is, globally reachable or not)
 *   as-ipv4            judged exactly as the IPv4 address it carries (the socket connects to that address)
 *   if-carried-public  reached only when every IPv4 address it carries is public (translation, tunnels)
 * The most specific block containing an address decides.
 */
type Verdict = 'public' | 'loopback' | 'private' | 'never' | 'as-ipv4' | 'if-carried-public';
interface Row {
  block: string;
  name: string;
  rfc: string;
  iana: boolean | 'n/a' | '-';
  verdict: Verdict;
}

const IPV4_TABLE: Row[] = [
  { block: '0.0.0.0/0', name: 'any other address: allocated unicast', rfc: 'RFC 791', iana: '-', verdict: 'public' },
  { block: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791 §3.2', iana: false, verdict: 'never' },
  { block: '0.0.0.0/32', name: '"This host on this network"', rfc: 'RFC 1122 §3.2.1.3', iana: false, verdict: 'never' },
  { block: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', iana: false, verdict: 'private' },
  { block: '100.64.0.0/10', name: 'Shared Address Space', rfc: 'RFC 6598', iana: false, verdict: 'never' },
  { block: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122 §3.2.1.3', iana: false, verdict: 'loopback' },
  { block: '169.254.0.0/16', name: 'Link Local', rfc: 'RFC 3927', iana: false, verdict: 'never' },
  { block: '169.254.169.254/32', name: 'cloud instance metadata, in Link Local', rfc: 'RFC 3927', iana: false, verdict: 'never' },
  { block: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', iana: false, verdict: 'private' },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments', rfc: 'RFC 6890 §2.1', iana: false, verdict: 'never' },
  { block: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', rfc: 'RFC 7335', iana: false, verdict: 'never' },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600', iana: false, verdict: 'never' },
  { block: '192.0.0.9/32', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', iana: true, verdict: 'never' },
  { block: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', iana: true, verdict: 'never' },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', iana: false, verdict: 'never' },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050 §2.2', iana: false, verdict: 'never' },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', iana: false, verdict: 'never' },
  { block: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', iana: true, verdict: 'never' },
  { block: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', iana: true, verdict: 'never' },
  { block: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526', iana: 'n/a', verdict: 'never' },
  { block: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', iana: false, verdict: 'private' },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', iana: true, verdict: 'never' },
  { block: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', iana: false, verdict: 'never' },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', iana: false, verdict: 'never' },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', iana: false, verdict: 'never' },
  { block: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771', iana: '-', verdict: 'never' },
  { block: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112 §4', iana: false, verdict: 'never' },
  { block: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 8190, RFC 919 §7', iana: false, verdict: 'never' },
];

const IPV6_TABLE: Row[] = [
  {
    block: '::/0',
    name: 'Reserved by IETF, outside global unicast (IPv6 Address Space)',
    rfc: 'RFC 4291 §2.4',
    iana: '-',
    verdict: 'never',
  },
  { block: '2000::/3', name: 'Global Unicast (IPv6 Address Space)', rfc: 'RFC 4291 §2.4', iana: '-', verdict: 'public' },
  { block: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291', iana: false, verdict: 'never' },
  { block: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', iana: false, verdict: 'loopback' },
  { block: '::/96', name: 'IPv4-Compatible (deprecated)', rfc: 'RFC 4291 §2.5.5.1', iana: '-', verdict: 'never' },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', rfc: 'RFC 4291 §2.5.5.2', iana: false, verdict: 'as-ipv4' },
  { block: '::ffff:0:0:0/96', name: 'SIIT IPv4-translated', rfc: 'RFC 6145 / RFC 2765', iana: '-', verdict: 'never' },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translat. (well-known prefix)', rfc: 'RFC 6052', iana: true, verdict: 'if-carried-public' },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat. (local use)', rfc: 'RFC 8215', iana: false, verdict: 'never' },
  { block: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', iana: false, verdict: 'never' },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', iana: false, verdict: 'never' },
  { block: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928', iana: false, verdict: 'never' },
  { block: '2001::/32', name: 'TEREDO', rfc: 'RFC 4380, RFC 8190', iana: 'n/a', verdict: 'if-carried-public' },
  { block: '2001:1::1/128', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', iana: true, verdict: 'never' },
  { block: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', iana: true, verdict: 'never' },
  { block: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', rfc: 'RFC 9665', iana: true, verdict: 'never' },
  { block: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180, RFC Errata 1752', iana: false, verdict: 'never' },
  { block: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450', iana: true, verdict: 'never' },
  { block: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535', iana: true, verdict: 'never' },
  { block: '2001:10::/28', name: 'Deprecated (previously ORCHID)', rfc: 'RFC 4843', iana: 'n/a', verdict: 'never' },
  { block: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343', iana: true, verdict: 'never' },
  { block: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', rfc: 'RFC 9374', iana: true, verdict: 'never' },
  { block: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', iana: false, verdict: 'never' },
  { block: '2002::/16', name: '6to4', rfc: 'RFC 3056', iana: 'n/a', verdict: 'if-carried-public' },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', iana: true, verdict: 'never' },
  { block: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', iana: false, verdict: 'never' },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', iana: false, verdict: 'never' },
  { block: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190', iana: false, verdict: 'private' },
  { block: 'fd00:ec2::254/128', name: 'AWS instance metadata, in Unique-Local', rfc: 'RFC 4193', iana: '-', verdict: 'never' },
  { block: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', iana: false, verdict: 'never' },
  { block: 'fec0::/10', name: 'Site-Local (deprecated)', rfc: 'RFC 3879', iana: '-', verdict: 'never' },
  { block: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291 §2.7', iana: '-', verdict: 'never' },
];

// ---- The oracle: the tables above, longest prefix first ----

interface Block {
  row: Row;
  base: bigint;
  length: number;
  width: 32 | 128;
}

/** Table constants only (hex groups and one `::`); checked against the WHATWG URL parser below. */
function expandConstant(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}
const dotted = (value: number): string => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
const dottedValue = (text: string): number => text.split('.').reduce((value, byte) => value * 256 + Number(byte), 0);

const block = (row: Row, width: 32 | 128): Block => {
  const [base, length] = row.block.split('/');
  return { row, base: width === 32 ? BigInt(dottedValue(base!)) : expandConstant(base!), length: Number(length), width };
};
const V4 = IPV4_TABLE.map((row) => block(row, 32));
const V6 = IPV6_TABLE.map((row) => block(row, 128));

const contains = ({ base, length, width }: Block, value: bigint) => value >> BigInt(width - length) === base >> BigInt(width - length);
const decidingRow = (blocks: Block[], value: bigint): Row =>
  blocks.filter((candidate) => contains(candidate, value)).sort((a, b) => b.length - a.length)[0]!.row;

const bitsOf = (value: bigint, from: number, to: number): number => Number((value >> BigInt(128 - to)) & ((1n << BigInt(to - from)) - 1n));

function verdictAllows(verdict: Verdict, policy: ReachPolicy): boolean {
  return verdict === 'public' || (verdict === 'loopback' && policy.allowLoopback) || (verdict === 'private' && policy.allowPrivate);
}
const expectedV4 = (value: number, policy: ReachPolicy) => verdictAllows(decidingRow(V4, BigInt(value)).verdict, policy);
const publicV4 = (value: number) => decidingRow(V4, BigInt(value)).verdict === 'public';

/** The IPv4 addresses an address of a translation or tunnel block carries (RFC 6052 §2.2, RFC 3056 §2, RFC 4380 §4). */
function carriedBy(row: Row, value: bigint): number[] {
  if (row.block === '2002::/16') return [bitsOf(value, 16, 48)];
  if (row.block === '2001::/32') return [bitsOf(value, 32, 64), (bitsOf(value, 96, 128) ^ 0xffffffff) >>> 0];
  return [bitsOf(value, 96, 128)];
}

function expectedV6(value: bigint, policy: ReachPolicy): boolean {
  const row = decidingRow(V6, value);
  if (row.verdict === 'as-ipv4') return expectedV4(bitsOf(value, 96, 128), policy);
  if (row.verdict === 'if-carried-public') return carriedBy(row, value).every(publicV4);
  // ISATAP (RFC 5214 §6.1): interface identifier 0000:5efe or 0200:5efe, then the IPv4 address of the site's router.
  const isatap = [0x0000, 0x0200].includes(bitsOf(value, 64, 80)) && bitsOf(value, 80, 96) === 0x5efe;
  if (isatap && (row.verdict === 'public' || row.verdict === 'private')) {
    const carried = decidingRow(V4, BigInt(bitsOf(value, 96, 128))).verdict;
    const fits = carried === 'public' || (carried === 'private' && row.verdict === 'private');
    return fits && verdictAllows(row.verdict, policy);
  }
  return verdictAllows(row.verdict, policy);
}

// ---- Addresses of every block, and every spelling of them ----

const POLICIES: ReachPolicy[] = [
  { allowLoopback: false, allowPrivate: false },
  { allowLoopback: true, allowPrivate: false },
  { allowLoopback: false, allowPrivate: true },
  { allowLoopback: true, allowPrivate: true },
];

/** Inside a block (first, last, any) or just outside it. */
function addressNear({ base, length, width }: Block): fc.Arbitrary<bigint> {
  const size = 1n << BigInt(width - length);
  const first = (base >> BigInt(width - length)) << BigInt(width - length);
  const last = first + size - 1n;
  const max = (1n << BigInt(width)) - 1n;
  return fc.oneof(
    fc.constant(first),
    fc.constant(last),
    fc.bigInt({ min: first, max: last }),
    fc.constant(first === 0n ? first : first - 1n),
    fc.constant(last === max ? last : last + 1n),
  );
}
const ipv4 = fc.constantFrom(...V4).chain((v4) => addressNear(v4).map(Number));
const ipv6 = fc.constantFrom(...V6).chain(addressNear);
const bitsArb = (count: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(count)) - 1n });

/** IPv6 addresses that carry an IPv4 address from any IPv4 block, in every form the issue lists. */
const carrying: fc.Arbitrary<{ form: string; value: bigint }> = fc.oneof(
  ipv4.map((v4) => ({ form: 'IPv4-compatible ::a.b.c.d', value: BigInt(v4) })),
  ipv4.map((v4) => ({ form: 'IPv4-mapped ::ffff:a.b.c.d', value: (0xffffn << 32n) | BigInt(v4) })),
  ipv4.map((v4) => ({ form: 'SIIT ::ffff:0:a.b.c.d', value: (0xffffn << 48n) | BigInt(v4) })),
  ipv4.map((v4) => ({ form: 'NAT64 64:ff9b::/96', value: (0x64ff9bn << 96n) | BigInt(v4) })),
  fc
    .tuple(ipv4, bitsArb(48))
    .map(([v4, fill]) => ({ form: 'NAT64 local 64:ff9b:1::/48', value: (0x64ff9b0001n << 80n) | (fill << 32n) | BigInt(v4) })),
  fc.tuple(ipv4, bitsArb(80)).map(([v4, fill]) => ({ form: '6to4 2002::/16', value: (0x2002n << 112n) | (BigInt(v4) << 80n) | fill })),
  fc.tuple(ipv4, ipv4, bitsArb(32)).map(([server, client, flagsAndPort]) => ({
    form: 'Teredo 2001::/32',
    value: (0x20010000n << 96n) | (BigInt(server) << 64n) | (flagsAndPort << 32n) | BigInt((client ^ 0xffffffff) >>> 0),
  })),
  fc
    .tuple(
      ipv4,
      fc.constantFrom(0x00005efen, 0x02005efen),
      fc.oneof(
        bitsArb(61).map((fill) => (0b001n << 61n) | fill),
        bitsArb(57).map((fill) => (0x7en << 57n) | fill),
      ),
    )
    .map(([v4, identifier, prefix]) => ({
      form: 'ISATAP, global or unique-local prefix',
      value: (prefix << 64n) | (identifier << 32n) | BigInt(v4),
    })),
);

interface Spelling6 {
  dottedTail: boolean;
  compress: boolean;
  run: number;
  widths: number[];
  upper: boolean[];
  bracket: boolean;
  zone: string;
}
const spelling6: fc.Arbitrary<Spelling6> = fc.record({
  dottedTail: fc.boolean(),
  compress: fc.boolean(),
  run: fc.nat(),
  widths: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 8, maxLength: 8 }),
  upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  bracket: fc.boolean(),
  zone: fc.constantFrom('', '', '%eth0', '%25'),
});

/** RFC 4291 §2.2: any of the text forms (leading zeros or not, any case, `::` over any run of zeros, a dotted-quad tail). */
function spell6(value: bigint, how: Spelling6): string {
  const groups = Array.from({ length: 8 }, (_, index) => bitsOf(value, index * 16, index * 16 + 16));
  const hexCount = how.dottedTail ? 6 : 8;
  const pieces = groups.slice(0, hexCount).map((group, index) => {
    const hex = group.toString(16).padStart(how.widths[index]!, '0');
    return how.upper[index] ? hex.toUpperCase() : hex;
  });
  if (how.dottedTail) pieces.push(dotted(bitsOf(value, 96, 128)));
  const runs: Array<[number, number]> = [];
  for (let start = 0; start < hexCount; start++)
    for (let end = start + 1; end <= hexCount && groups[end - 1] === 0; end++) runs.push([start, end]);
  let text = pieces.join(':');
  if (how.compress && runs.length > 0) {
    const [start, end] = runs[how.run % runs.length]!;
    text = `${pieces.slice(0, start).join(':')}::${pieces.slice(end).join(':')}`;
  }
  text += how.zone;
  return how.bracket ? `[${text}]` : text;
}

/** RFC 5952 §4 / the WHATWG serializer: lower case, no leading zeros, the first longest run of two or more zero groups as `::`. */
function canonical6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, index) => bitsOf(value, index * 16, index * 16 + 16));
  let best: [number, number] = [-1, 0];
  for (let start = 0; start < 8; start++) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > 1 && end - start > best[1]) best = [start, end - start];
  }
  const hex = groups.map((group) => group.toString(16));
  if (best[0] === -1) return hex.join(':');
  return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0] + best[1]).join(':')}`;
}

interface Spelling4 {
  parts: number;
  radix: Array<'dec' | 'oct' | 'hex' | 'HEX'>;
  padding: number[];
  trailingDot: boolean;
}
const spelling4: fc.Arbitrary<Spelling4> = fc.record({
  parts: fc.integer({ min: 1, max: 4 }),
  radix: fc.array(fc.constantFrom('dec' as const, 'oct' as const, 'hex' as const, 'HEX' as const), { minLength: 4, maxLength: 4 }),
  padding: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
  trailingDot: fc.boolean(),
});

/** inet_aton / WHATWG: one to four parts, each decimal, octal or hex, the last filling the remaining bytes. */
function spell4(value: number, how: Spelling4): string {
  const numbers: number[] = [];
  for (let index = 0; index < how.parts - 1; index++) numbers.push(Math.floor(value / 2 ** (24 - 8 * index)) % 256);
  numbers.push(value % 2 ** (8 * (5 - how.parts)));
  const text = numbers
    .map((number, index) => {
      const zeros = '0'.repeat(how.padding[index]!);
      switch (how.radix[index]) {
        case 'oct':
          return `0${zeros}${number.toString(8)}`;
        case 'hex':
          return number === 0 && how.padding[index] === 0 ? '0x' : `0x${zeros}${number.toString(16)}`;
        case 'HEX':
          return `0X${zeros}${number.toString(16).toUpperCase()}`;
        default:
          return String(number);
      }
    })
    .join('.');
  return how.trailingDot ? `${text}.` : text;
}

const whatwgHost = (host: string): string | null => {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
};

const RUNS = Number(process.env['ADDRESS_RUNS'] ?? 3000);
const reachable = (address: string, policy: ReachPolicy) => judgeAddress(address, policy).reachable;

describe('the table', () => {
  it('is spelled right: every block is its own first address, as the WHATWG URL parser reads it', () => {
    for (const { row, base, width } of [...V4, ...V6]) {
      const first = row.block.split('/')[0]!;
      if (width === 32) expect(whatwgHost(first)).toBe(dotted(Number(base)));
      else expect(whatwgHost(`[${first}]`)).toBe(`[${canonical6(base)}]`);
    }
  });
});

describe('which addresses may be reached', () => {
  it.each(
    [...V4, ...V6].flatMap(({ row, base, length, width }) => {
      const size = 1n << BigInt(width - length);
      return [
        [row.block, row.name, row.rfc, 'first', base, width] as const,
        [row.block, row.name, row.rfc, 'last', base + size - 1n, width] as const,
      ];
    }),
  )('%s (%s, %s): its %s address, under every policy', (_block, _name, _rfc, _which, value, width) => {
    const address = width === 32 ? dotted(Number(value)) : canonical6(value);
    for (const policy of POLICIES) {
      const expected = width === 32 ? expectedV4(Number(value), policy) : expectedV6(value, policy);
      expect([address, policy, reachable(address, policy)]).toEqual([address, policy, expected]);
    }
  });

  it('decides every IPv4 address the same in every numeric spelling: dotted, decimal, octal, hex, mixed parts', () => {
    fc.assert(
      fc.property(ipv4, spelling4, fc.constantFrom(...POLICIES), (value, how, policy) => {
        const text = spell4(value, how);
        expect(whatwgHost(text)).toBe(dotted(value));
        expect(parseAddress(text)).toEqual({ family: 4, value });
        expect(reachable(text, policy)).toBe(expectedV4(value, policy));
      }),
      { numRuns: RUNS },
    );
  });

  it('decides every IPv6 address the same in every text form: expanded, compressed, upper case, dotted tail, brackets, zone', () => {
    fc.assert(
      fc.property(ipv6, spelling6, fc.constantFrom(...POLICIES), (value, how, policy) => {
        const text = spell6(value, how);
        if (how.zone === '') expect(whatwgHost(how.bracket ? text : `[${text}]`)).toBe(`[${canonical6(value)}]`);
        expect(parseAddress(text)).toEqual({ family: 6, value });
        expect(reachable(text, policy)).toBe(expectedV6(value, policy));
      }),
      { numRuns: RUNS },
    );
  });

  it('looks through every IPv6 form that carries an IPv4 address, and judges what it carries', () => {
    fc.assert(
      fc.property(carrying, spelling6, fc.constantFrom(...POLICIES), ({ form, value }, how, policy) => {
        const text = spell6(value, how);
        if (how.zone === '') expect(whatwgHost(how.bracket ? text : `[${text}]`)).toBe(`[${canonical6(value)}]`);
        expect([form, text, reachable(text, policy)]).toEqual([form, text, expectedV6(value, policy)]);
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    ['::a9fe:a9fe', '169.254.169.254'],
    ['::a00:7', '10.0.0.7'],
    ['::7f00:1', '127.0.0.1'],
    ['::ffff:a9fe:a9fe', '169.254.169.254'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', '169.254.169.254'],
    ['2002:a9fe:a9fe::', '169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', '169.254.169.254'],
    ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
    ['2a00:1450::200:5efe:a9fe:a9fe', '169.254.169.254'],
  ])('refuses %s under every policy, naming the IPv4 address it carries (%s)', (address, carried) => {
    for (const policy of POLICIES) {
      const judged = judgeAddress(address, policy);
      expect(judged.reachable).toBe(false);
      expect(judged.why).toContain(carried);
    }
  });

  it.each(['2852039166', '0xa9fea9fe', '0251.0376.0251.0376', '169.254.43518', '0xA9.0xFE.0xA9FE', '0x7f.1', '0177.1', '127.1', '0'])(
    'decodes %s like the WHATWG URL parser and refuses it under a public-only policy',
    (address) => {
      expect(judgeAddress(address, POLICIES[0]!).reachable).toBe(false);
      expect(parseAddress(address)).toEqual({ family: 4, value: dottedValue(whatwgHost(address)!) });
    },
  );

  it('reaches public addresses, and public IPv4 addresses through NAT64, 6to4 and Teredo', () => {
    for (const address of [
      '8.8.8.8',
      '134744072',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ])
      expect([address, reachable(address, POLICIES[0]!)]).toEqual([address, true]);
  });
});

describe('parsing', () => {
  /** A valid spelling with one character deleted, doubled or replaced: the near misses a parser gets wrong. */
  const nearMiss = (valid: fc.Arbitrary<string>, alphabet: string) =>
    fc
      .tuple(valid, fc.nat(), fc.constantFrom('delete', 'double', 'replace'), fc.constantFrom(...alphabet.split('')))
      .map(([text, at, edit, char]) => {
        const index = at % text.length;
        if (edit === 'delete') return text.slice(0, index) + text.slice(index + 1);
        if (edit === 'double') return text.slice(0, index + 1) + text.slice(index);
        return text.slice(0, index) + char + text.slice(index + 1);
      });
  const ipv6Random = fc.string({
    unit: fc.constantFrom(':', ':', ':', '::', '0', '1', '00', 'ff', 'FFFF', 'aBcD', '12345', 'g', '.', '1.2.3.4', '255', '256', '01'),
    maxLength: 14,
  });
  const ipv4Random = fc.string({
    unit: fc.constantFrom(...'0123456789abcdefxX.'.split(''), '.', '.', '0x', '0X', '255', '256', '4294967295'),
    maxLength: 12,
  });
  const unbracketed = spelling6.map((how) => ({ ...how, bracket: false, zone: '' }));
  const ipv6Text = fc.oneof(
    ipv6Random,
    nearMiss(
      fc.tuple(ipv6, unbracketed).map(([value, how]) => spell6(value, how)),
      '0189afAF:.g',
    ),
  );
  const ipv4Text = fc.oneof(
    ipv4Random,
    nearMiss(
      fc.tuple(ipv4, spelling4).map(([value, how]) => spell4(value, how)),
      '0789afxX.',
    ),
  );

  it('reads IPv6 text exactly as the WHATWG URL parser does: the same address, or neither', () => {
    fc.assert(
      fc.property(ipv6Text, (text) => {
        const theirs = whatwgHost(`[${text}]`);
        const ours = parseAddress(`[${text}]`);
        expect(ours === null ? null : `[${canonical6(ours.value as bigint)}]`).toBe(theirs);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('reads IPv4 text exactly as the WHATWG URL parser does: the same address, or not an address', () => {
    fc.assert(
      fc.property(ipv4Text, (text) => {
        const theirs = whatwgHost(text);
        const ours = parseAddress(text);
        if (ours === null) expect([text, theirs === null || theirs === text.toLowerCase()]).toEqual([text, true]);
        else expect(theirs).toBe(dotted(ours.value as number));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('refuses whatever is not an address, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), fc.constantFrom(...POLICIES), (text, policy) => {
        const judged = judgeAddress(text, policy);
        if (parseAddress(text) === null) expect(judged).toEqual({ reachable: false, category: 'unparseable', why: 'not an IP address' });
      }),
      { numRuns: RUNS },
    );
    for (const text of [
      '',
      ' 8.8.8.8',
      '8.8.8.8 ',
      '[8.8.8.8]',
      '1.2.3.4.5',
      '256.0.0.0',
      '1.2.3.0400',
      '09.1.1.1',
      '::ffff:1.2.3.04',
      '1::2::3',
      '[::1',
      'fe80::1%',
      'localhost',
    ])
      expect([text, reachable(text, POLICIES[3]!)]).toEqual([text, false]);
  });
});
