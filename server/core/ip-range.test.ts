import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { embeddedIpv4, isPublicAddress, parseIpRange, rangeContains } from './ip-range';

describe('parseIpRange', () => {
  it('describes a single IPv4 address', () => {
    expect(parseIpRange('192.0.2.7')).toEqual({ address: '192.0.2.7', cidr: 32, ipv4: true, ipv6: false, first: '192.0.2.7', last: '192.0.2.7' });
  });

  it('describes an IPv4 range', () => {
    expect(parseIpRange('198.51.100.0/24')).toMatchObject({ cidr: 24, first: '198.51.100.0', last: '198.51.100.255' });
    expect(parseIpRange('10.0.0.0/8')).toMatchObject({ first: '10.0.0.0', last: '10.255.255.255' });
    expect(parseIpRange('0.0.0.0/0')).toMatchObject({ first: '0.0.0.0', last: '255.255.255.255' });
  });

  it('writes IPv6 in canonical compressed form (RFC 5952)', () => {
    expect(parseIpRange('2001:DB8:0:0:0:0:0:1')).toEqual({ address: '2001:db8::1', cidr: 128, ipv4: false, ipv6: true, first: '2001:db8::1', last: '2001:db8::1' });
    expect(parseIpRange('2001:db8::/32')).toMatchObject({ first: '2001:db8::', last: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff' });
    expect(parseIpRange('2001:db8:0:0:1:0:0:1').address).toBe('2001:db8::1:0:0:1');
  });

  it.each([
    ['198.51.100.7/24', /host bits set; the network is 198.51.100.0\/24/],
    ['192.0.2.1/33', /prefix length/],
    ['300.1.1.1', /octets 0–255/],
    ['010.0.0.1', /leading zeros/],
    ['fe80::1%eth0', /IPv6 address/],
    ['example.com', /IPv4 or IPv6/],
  ])('rejects %s', (input, message) => {
    expect(() => parseIpRange(input)).toThrow(message);
  });

  const v4 = fc.tuple(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 32 }));
  const v6 = fc.tuple(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 16, maxLength: 16 }), fc.integer({ min: 0, max: 128 }));

  it('first..last holds exactly 2^(bits-cidr) addresses and contains the network (property)', () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), ([bytes, cidr]) => {
        const net = ipaddr.fromByteArray(bytes);
        const bits = bytes.length * 8;
        const masked = ipaddr.fromByteArray(bytes.map((b, i) => b & ((0xff << (8 - Math.min(8, Math.max(0, cidr - i * 8)))) & 0xff)));
        const text = masked.kind() === 'ipv6' ? (masked as ipaddr.IPv6).toRFC5952String() : masked.toString();
        const r = parseIpRange(`${text}/${cidr}`);
        const toBig = (s: string) =>
          ipaddr
            .parse(s)
            .toByteArray()
            .reduce((acc, b) => (acc << 8n) + BigInt(b), 0n);
        expect(toBig(r.last) - toBig(r.first) + 1n).toBe(1n << BigInt(bits - cidr));
        expect(r.first).toBe(r.address);
        expect(rangeContains(r, r.first)).toBe(true);
        expect(rangeContains(r, r.last)).toBe(true);
        expect(r.ipv4).toBe(net.kind() === 'ipv4');
        expect(r.ipv4).not.toBe(r.ipv6);
      }),
    );
  });

  it('an address just past the range is outside it', () => {
    const r = parseIpRange('198.51.100.0/24');
    expect(rangeContains(r, '198.51.101.0')).toBe(false);
    expect(rangeContains(r, '198.51.99.255')).toBe(false);
    expect(rangeContains(r, '2001:db8::1')).toBe(false);
  });
});

describe('isPublicAddress: IPv6 spellings of IPv4 are judged as the IPv4 they carry', () => {
  it.each([
    // IPv4 itself, and plain IPv6.
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['100.64.0.9', false],
    ['169.254.1.1', false],
    ['192.0.2.55', true],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['fec0::1', false],
    ['2001:db8::55', true],
    // IPv4-mapped ::ffff:0:0/96.
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:192.0.2.55', true],
    // IPv4-compatible ::/96 (deprecated, still parsed by stacks).
    ['::7f00:1', false],
    ['::10.0.0.1', false],
    ['::c000:237', true],
    // IPv4-translated ::ffff:0:0:0/96.
    ['::ffff:0:a00:1', false],
    ['::ffff:0:c000:237', true],
    // NAT64, the well-known prefix 64:ff9b::/96, and the local-use 64:ff9b:1::/48 (a network's own).
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::c000:237', true],
    ['64:ff9b:1::c000:237', false],
    ['64:ff9b:1:ffff::1', false],
    // 6to4 2002::/16: the IPv4 in bits 16–48, whatever follows.
    ['2002:7f00:1::', false],
    ['2002:a00:1:1::1', false],
    ['2002:c0a8:101::1', false],
    ['2002:c000:237::1', true],
    // Teredo 2001::/32: the server in bits 32–64, the client inverted in the last 32.
    ['2001:0:c000:237:0:0:80ff:fffe', false], // client 127.0.0.1
    ['2001:0:c000:237:0:0:3fff:c8a', true], // client 192.0.243.117
    ['2001:0:a00:1:0:0:3fff:c8a', false], // server 10.0.0.1
    // Not an address.
    ['nonsense', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('finds the IPv4 in each form, and none in other IPv6', () => {
    const of = (a: string) => embeddedIpv4(ipaddr.IPv6.parse(a)).map(String);
    expect(of('::ffff:192.0.2.1')).toEqual(['192.0.2.1']);
    expect(of('::192.0.2.1')).toEqual(['192.0.2.1']);
    expect(of('::ffff:0:192.0.2.1')).toEqual(['192.0.2.1']);
    expect(of('64:ff9b::192.0.2.1')).toEqual(['192.0.2.1']);
    expect(of('2002:c000:201:5::9')).toEqual(['192.0.2.1']);
    expect(of('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['65.54.227.120', '192.0.2.45']);
    expect(of('2001:db8::1')).toEqual([]);
    expect(of('64:ff9b:0:0:1::1')).toEqual([]);
  });
});
