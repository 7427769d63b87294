import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { parseIpRange, rangeContains } from './ip-range';

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
        const toBig = (s: string) => ipaddr.parse(s).toByteArray().reduce((acc, b) => (acc << 8n) + BigInt(b), 0n);
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
