import { BlockList } from 'node:net';
import fc from 'fast-check';
import { clientAddressBucket } from './client-address';

// The oracle is written here, not taken from the library under test: an address is eight 16-bit groups,
// spelled by the test in the ways RFC 4291 §2.2 allows, and Node's BlockList says which /64 holds it.
type Groups = number[];

const hex = (group: number, upper: boolean, padded: boolean) => {
  const text = group.toString(16);
  const written = padded ? text.padStart(4, '0') : text;
  return upper ? written.toUpperCase() : written;
};

/** One spelling of the address: groups in full or with their longest run of zeros compressed, any case, padded or not. */
function spell(groups: Groups, style: { upper: boolean; padded: boolean; compress: boolean; zone: boolean }): string {
  const written = groups.map((group) => hex(group, style.upper, style.padded));
  let text = written.join(':');
  if (style.compress) {
    let best = { at: -1, length: 0 };
    for (let at = 0; at < 8; at++) {
      let length = 0;
      while (at + length < 8 && groups[at + length] === 0) length++;
      if (length > best.length) best = { at, length };
    }
    if (best.length >= 2) text = `${written.slice(0, best.at).join(':')}::${written.slice(best.at + best.length).join(':')}`;
  }
  return style.zone ? `${text}%eth0` : text;
}

const groupsArb = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
// Ordinary IPv6 addresses: not the IPv4-mapped (::ffff:0:0/96) or well-known NAT64 (64:ff9b::/96) ones, which carry IPv4.
const ipv6Arb = groupsArb.filter(
  (g) =>
    !(g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) && !(g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)),
);
const styleArb = fc.record({ upper: fc.boolean(), padded: fc.boolean(), compress: fc.boolean(), zone: fc.boolean() });
const ipv4Arb = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });

const canonical = (groups: Groups) => groups.map((g) => g.toString(16)).join(':');
function inSubnetOf(bucket: string, groups: Groups): boolean {
  const [network, bits] = bucket.split('/');
  const list = new BlockList();
  list.addSubnet(network!, Number(bits), 'ipv6');
  return list.check(canonical(groups), 'ipv6');
}

describe('the client a per-address bucket is kept for', () => {
  it('is one /64 for every address in it, however written, and a /64 holding the address', () => {
    fc.assert(
      fc.property(
        ipv6Arb,
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }),
        styleArb,
        styleArb,
        (g, low, s1, s2) => {
          const sibling = [...g.slice(0, 4), ...low];
          const bucket = clientAddressBucket(spell(g, s1));
          expect(bucket).toMatch(/\/64$/);
          expect(clientAddressBucket(spell(sibling, s2))).toBe(bucket);
          expect(inSubnetOf(bucket, g)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('differs between addresses of different /64s', () => {
    fc.assert(
      fc.property(ipv6Arb, ipv6Arb, styleArb, (a, b, style) => {
        fc.pre(a.slice(0, 4).join() !== b.slice(0, 4).join());
        expect(clientAddressBucket(spell(a, style))).not.toBe(clientAddressBucket(spell(b, style)));
        expect(inSubnetOf(clientAddressBucket(spell(a, style)), b)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('is the IPv4 address itself, written plainly, IPv4-mapped or through the well-known NAT64 prefix', () => {
    fc.assert(
      fc.property(ipv4Arb, fc.boolean(), (octets, upper) => {
        const dotted = octets.join('.');
        const high = ((octets[0]! << 8) | octets[1]!).toString(16);
        const low = ((octets[2]! << 8) | octets[3]!).toString(16);
        const spellings = [
          dotted,
          ` ${dotted} `,
          `::ffff:${dotted}`,
          `::ffff:${high}:${low}`,
          `0:0:0:0:0:ffff:${dotted}`,
          `64:ff9b::${dotted}`,
        ];
        for (const spelling of spellings) expect(clientAddressBucket(upper ? spelling.toUpperCase() : spelling)).toBe(dotted);
      }),
      { numRuns: 500 },
    );
  });

  it('keys text that is no address by a bounded piece of itself, and nothing as unknown', () => {
    expect(clientAddressBucket(undefined)).toBe('unknown');
    expect(clientAddressBucket('  ')).toBe('unknown');
    expect(clientAddressBucket('not an address')).toBe('text:not an address');
    expect(clientAddressBucket('x'.repeat(1000))).toBe(`text:${'x'.repeat(64)}`);
  });
});
