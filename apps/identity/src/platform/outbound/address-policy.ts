/**
 * The one decision on which addresses identity connects to on someone else's word (partners' webhook
 * URLs; OIDC clients' metadata documents and key sets). Every spelling is parsed (IPv4 as the WHATWG
 * URL parser and inet_aton read it: decimal, octal, hex, one to four parts; IPv6 in every text form,
 * with brackets or a zone), every IPv6 form that carries an IPv4 address is looked through, and the
 * address is judged by the IANA IPv4 and IPv6 special-purpose address registries. docs/decisions.md
 * (issue 27) says why each range is decided as it is.
 */

/** What a deployment allows beyond public addresses. */
export interface ReachPolicy {
  /** 127.0.0.0/8, ::1 (and IPv4-mapped loopback): development and tests. */
  allowLoopback: boolean;
  /** RFC 1918 and unique-local fc00::/7 (and IPv4-mapped RFC 1918). */
  allowPrivate: boolean;
}

export const PUBLIC_ONLY: ReachPolicy = Object.freeze({ allowLoopback: false, allowPrivate: false });

/** `special`: never reached, whatever the policy; `unparseable`: not an IP address at all. */
export type AddressCategory = 'public' | 'loopback' | 'private' | 'special' | 'unparseable';

export interface AddressJudgement {
  reachable: boolean;
  category: AddressCategory;
  /** The range that decided, in words, and what an IPv6 address carries: for messages and logs. */
  why: string;
}

export type ParsedAddress = { family: 4; value: number } | { family: 6; value: bigint };

/** Whether `address` may be connected to under `policy`, and why. Anything not parseable is refused. */
export function judgeAddress(address: string, policy: ReachPolicy): AddressJudgement {
  const parsed = parseAddress(address);
  if (!parsed) return { reachable: false, category: 'unparseable', why: 'not an IP address' };
  const { category, why } = parsed.family === 4 ? classify4(parsed.value) : classify6(parsed.value);
  return { reachable: allows(policy, category), category, why };
}

/** The judge under one policy, as a connection's address check. */
export function addressPolicy(policy: ReachPolicy): (address: string) => AddressJudgement {
  const fixed = { ...policy };
  return (address) => judgeAddress(address, fixed);
}

/** An IPv4 address in any spelling the WHATWG URL parser accepts, or an IPv6 address in any text form (RFC 4291 §2.2). */
export function parseAddress(text: string): ParsedAddress | null {
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) return null;
    const value = parseIPv6WithZone(text.slice(1, -1));
    return value === null ? null : { family: 6, value };
  }
  if (text.includes(':')) {
    const value = parseIPv6WithZone(text);
    return value === null ? null : { family: 6, value };
  }
  const value = parseIPv4(text);
  return value === null ? null : { family: 4, value };
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

function allows(policy: ReachPolicy, category: AddressCategory): boolean {
  if (category === 'public') return true;
  if (category === 'loopback') return policy.allowLoopback;
  if (category === 'private') return policy.allowPrivate;
  return false;
}

// ---- Parsing ----

/** The WHATWG URL standard's IPv4 parser: one to four parts, each decimal, octal (leading 0) or hex (0x); the last fills the remaining bytes. */
function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const number = parseIPv4Number(part);
    if (number === null) return null;
    numbers.push(number);
  }
  const last = numbers.pop()!;
  if (numbers.some((number) => number > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, number, index) => sum + number * 256 ** (3 - index), last);
}

function parseIPv4Number(part: string): number | null {
  if (part === '') return null;
  let radix = 10;
  let digits = part;
  if (/^0x/i.test(part)) {
    radix = 16;
    digits = part.slice(2);
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8;
    digits = part.slice(1);
  }
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  return valid.test(digits) ? parseInt(digits, radix) : null;
}

const ZONE = /^[0-9A-Za-z._~-]+$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;
const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** RFC 4291 §2.2: eight hextets, one `::` for a run of zeros, the last 32 bits optionally as a dotted quad; a zone (RFC 4007) is dropped. */
function parseIPv6WithZone(text: string): bigint | null {
  const percent = text.indexOf('%');
  if (percent !== -1 && !ZONE.test(text.slice(percent + 1))) return null;
  return parseIPv6(percent === -1 ? text : text.slice(0, percent));
}

function parseIPv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = hextets(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? hextets(halves[1]!, true) : [];
  if (!head || !tail) return null;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const groups = [...head, ...Array<number>(8 - count).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function hextets(text: string, mayEndInDottedQuad: boolean): number[] | null {
  if (text === '') return [];
  const pieces = text.split(':');
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (HEXTET.test(piece)) groups.push(parseInt(piece, 16));
    else if (mayEndInDottedQuad && index === pieces.length - 1 && DOTTED_QUAD.test(piece)) {
      const value = parseIPv4(piece)!;
      groups.push(value >>> 16, value & 0xffff);
    } else return null;
  }
  return groups;
}

// ---- IPv4 ----

type Classified = { category: Exclude<AddressCategory, 'unparseable'>; why: string };
interface Range4 {
  base: number;
  length: number;
  category: 'loopback' | 'private' | 'special';
  name: string;
}

const range4 = (cidr: string, category: Range4['category'], name: string): Range4 => {
  const [base, length] = cidr.split('/');
  return { base: parseIPv4(base!)!, length: Number(length), category, name };
};

/**
 * IANA IPv4 Special-Purpose Address Registry, and multicast (RFC 5771). Every block is never reached,
 * globally reachable or not (AS112, AMT and the protocol anycast addresses serve protocols, not a
 * partner's HTTPS), except loopback and private use where the policy allows. First match decides.
 */
const IPV4_RANGES: Range4[] = [
  range4('0.0.0.0/8', 'special', '"this network" 0.0.0.0/8 (RFC 791, RFC 1122)'),
  range4('10.0.0.0/8', 'private', 'private-use 10.0.0.0/8 (RFC 1918)'),
  range4('100.64.0.0/10', 'special', 'shared address space 100.64.0.0/10 (RFC 6598)'),
  range4('127.0.0.0/8', 'loopback', 'loopback 127.0.0.0/8 (RFC 1122)'),
  range4('169.254.169.254/32', 'special', 'the cloud metadata address 169.254.169.254 (link-local, RFC 3927)'),
  range4('169.254.0.0/16', 'special', 'link-local 169.254.0.0/16 (RFC 3927)'),
  range4('172.16.0.0/12', 'private', 'private-use 172.16.0.0/12 (RFC 1918)'),
  range4('192.0.0.0/24', 'special', 'IETF protocol assignments 192.0.0.0/24 (RFC 6890)'),
  range4('192.0.2.0/24', 'special', 'documentation 192.0.2.0/24 (RFC 5737)'),
  range4('192.31.196.0/24', 'special', 'AS112-v4 192.31.196.0/24 (RFC 7535)'),
  range4('192.52.193.0/24', 'special', 'AMT 192.52.193.0/24 (RFC 7450)'),
  range4('192.88.99.0/24', 'special', 'deprecated 6to4 relay anycast 192.88.99.0/24 (RFC 7526)'),
  range4('192.168.0.0/16', 'private', 'private-use 192.168.0.0/16 (RFC 1918)'),
  range4('192.175.48.0/24', 'special', 'AS112 direct delegation 192.175.48.0/24 (RFC 7534)'),
  range4('198.18.0.0/15', 'special', 'benchmarking 198.18.0.0/15 (RFC 2544)'),
  range4('198.51.100.0/24', 'special', 'documentation 198.51.100.0/24 (RFC 5737)'),
  range4('203.0.113.0/24', 'special', 'documentation 203.0.113.0/24 (RFC 5737)'),
  range4('224.0.0.0/4', 'special', 'multicast 224.0.0.0/4 (RFC 5771)'),
  range4('255.255.255.255/32', 'special', 'limited broadcast 255.255.255.255 (RFC 919, RFC 8190)'),
  range4('240.0.0.0/4', 'special', 'reserved 240.0.0.0/4 (RFC 1112)'),
];

function classify4(value: number): Classified {
  const range = IPV4_RANGES.find(({ base, length }) => value >>> (32 - length) === base >>> (32 - length));
  return range ? { category: range.category, why: range.name } : { category: 'public', why: 'a public address' };
}

// ---- IPv6 ----

/** How a range's addresses are judged: by the range itself, or by the IPv4 address(es) they carry. */
type Judge6 =
  | { by: 'range'; category: 'loopback' | 'private' | 'special' }
  /** The socket connects to the carried IPv4 address itself: judged exactly as that address. */
  | { by: 'mapped' }
  /** Translation and tunnels: reached only when every carried IPv4 address is public (never through an allowance). */
  | { by: 'carried'; carried: (value: bigint) => Array<[role: string, ipv4: number]> }
  /** Carries an IPv4 address (named in the reason) but is never reached. */
  | { by: 'never'; carried: (value: bigint) => Array<[role: string, ipv4: number]> };

interface Range6 {
  /** The address shifted right by `shift` equals `prefix` inside the range. */
  prefix: bigint;
  shift: bigint;
  name: string;
  judge: Judge6;
}

const bits = (value: bigint, from: number, to: number): number => Number((value >> BigInt(128 - to)) & ((1n << BigInt(to - from)) - 1n));
const low32 = (value: bigint): Array<[string, number]> => [['IPv4', bits(value, 96, 128)]];
const range6 = (cidr: string, name: string, judge: Judge6): Range6 => {
  const [base, length] = cidr.split('/');
  const shift = BigInt(128 - Number(length));
  return { prefix: parseIPv6(base!)! >> shift, shift, name, judge };
};
const special = { by: 'range', category: 'special' } as const;

/**
 * IANA IPv6 Special-Purpose Address Registry, plus multicast, deprecated site-local and the AWS metadata
 * address (unique-local, so it would pass as private). First match decides: more specific first.
 * Outside these, only global unicast 2000::/3 is reached.
 */
const IPV6_RANGES: Range6[] = [
  range6('::/128', 'the unspecified address :: (RFC 4291)', special),
  range6('::1/128', 'loopback ::1 (RFC 4291)', { by: 'range', category: 'loopback' }),
  range6('::ffff:0:0/96', 'IPv4-mapped ::ffff:0:0/96 (RFC 4291)', { by: 'mapped' }),
  range6('::ffff:0:0:0/96', 'SIIT IPv4-translated ::ffff:0:0:0/96 (RFC 6145)', { by: 'never', carried: low32 }),
  range6('::/96', 'IPv4-compatible ::/96 (deprecated, RFC 4291 §2.5.5.1)', { by: 'never', carried: low32 }),
  range6('64:ff9b::/96', 'NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)', { by: 'carried', carried: low32 }),
  range6('64:ff9b:1::/48', 'NAT64 local-use prefix 64:ff9b:1::/48 (RFC 8215)', { by: 'never', carried: low32 }),
  range6('100::/64', 'discard-only 100::/64 (RFC 6666)', special),
  range6('100:0:0:1::/64', 'dummy prefix 100:0:0:1::/64 (RFC 9780)', special),
  range6('2001::/32', 'Teredo 2001::/32 (RFC 4380)', {
    by: 'carried',
    carried: (value) => [
      ['Teredo server', bits(value, 32, 64)],
      ['Teredo client', ~bits(value, 96, 128) >>> 0],
    ],
  }),
  range6('2001:1::1/128', 'PCP anycast 2001:1::1 (RFC 7723)', special),
  range6('2001:1::2/128', 'TURN anycast 2001:1::2 (RFC 8155)', special),
  range6('2001:1::3/128', 'DNS-SD SRP anycast 2001:1::3 (RFC 9665)', special),
  range6('2001:2::/48', 'benchmarking 2001:2::/48 (RFC 5180)', special),
  range6('2001:3::/32', 'AMT 2001:3::/32 (RFC 7450)', special),
  range6('2001:4:112::/48', 'AS112-v6 2001:4:112::/48 (RFC 7535)', special),
  range6('2001:10::/28', 'deprecated ORCHID 2001:10::/28 (RFC 4843)', special),
  range6('2001:20::/28', 'ORCHIDv2 2001:20::/28 (RFC 7343: identifiers, not locators)', special),
  range6('2001:30::/28', 'drone remote ID entity tags 2001:30::/28 (RFC 9374)', special),
  range6('2001::/23', 'IETF protocol assignments 2001::/23 (RFC 2928)', special),
  range6('2001:db8::/32', 'documentation 2001:db8::/32 (RFC 3849)', special),
  range6('2002::/16', '6to4 2002::/16 (RFC 3056)', { by: 'carried', carried: (value) => [['IPv4', bits(value, 16, 48)]] }),
  range6('2620:4f:8000::/48', 'AS112 direct delegation 2620:4f:8000::/48 (RFC 7534)', special),
  range6('3fff::/20', 'documentation 3fff::/20 (RFC 9637)', special),
  range6('5f00::/16', 'segment routing SIDs 5f00::/16 (RFC 9602)', special),
  range6('fd00:ec2::254/128', 'the AWS metadata address fd00:ec2::254', special),
  range6('fc00::/7', 'unique-local fc00::/7 (RFC 4193)', { by: 'range', category: 'private' }),
  range6('fe80::/10', 'link-local fe80::/10 (RFC 4291)', special),
  range6('fec0::/10', 'deprecated site-local fec0::/10 (RFC 3879)', special),
  range6('ff00::/8', 'multicast ff00::/8 (RFC 4291)', special),
];
const GLOBAL_UNICAST = range6('2000::/3', 'global unicast 2000::/3', special);

const within = (value: bigint, { prefix, shift }: Range6): boolean => value >> shift === prefix;

function classify6(value: bigint): Classified {
  const range = IPV6_RANGES.find((candidate) => within(value, candidate));
  if (!range) {
    if (!within(value, GLOBAL_UNICAST))
      return { category: 'special', why: 'outside global unicast 2000::/3 (RFC 4291, reserved by the IETF)' };
    return isatap(value, { category: 'public', why: 'global unicast 2000::/3' });
  }
  const { judge, name } = range;
  if (judge.by === 'range')
    return judge.category === 'private' ? isatap(value, { category: 'private', why: name }) : { category: judge.category, why: name };
  if (judge.by === 'mapped') {
    const ipv4 = bits(value, 96, 128);
    const inner = classify4(ipv4);
    return { category: inner.category, why: `${name} of ${formatIPv4(ipv4)}, ${inner.why}` };
  }
  const carried = judge.carried(value).map(([role, ipv4]) => ({ role, ipv4, ...classify4(ipv4) }));
  const described = carried.map(({ role, ipv4, why }) => `${role} ${formatIPv4(ipv4)}, ${why}`).join('; ');
  if (judge.by === 'never') return { category: 'special', why: `${name}, carrying ${described}` };
  const allPublic = carried.every((inner) => inner.category === 'public');
  return { category: allPublic ? 'public' : 'special', why: `${name}, carrying ${described}` };
}

/**
 * ISATAP (RFC 5214 §6.1): an interface identifier 0:5efe:a.b.c.d or 200:5efe:a.b.c.d is reached through
 * the site's router at that IPv4 address. A public prefix may carry only a public IPv4 address; a
 * unique-local one a public or private one; neither loopback or special-use ones.
 */
function isatap(value: bigint, outer: Classified): Classified {
  if ((bits(value, 64, 96) | 0x02000000) !== 0x02005efe) return outer;
  const ipv4 = bits(value, 96, 128);
  const inner = classify4(ipv4);
  const fits = inner.category === 'public' || (inner.category === 'private' && outer.category === 'private');
  return {
    category: fits ? outer.category : 'special',
    why: `${outer.why}, with an ISATAP interface identifier (RFC 5214) carrying IPv4 ${formatIPv4(ipv4)}, ${inner.why}`,
  };
}
