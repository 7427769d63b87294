/** NSEC rdata a validator decodes as meant: type bitmaps, successors, compact denial and the transfer chain. */
import { describe, expect, it } from 'vitest';
import { T } from '../index/rrset';
import { compareNames, nameWire, wireLength } from './canonical';
import { compactNsec, nsecChain, nsecRdata, successor, typeBitmap } from './denial';

describe('NSEC type bitmaps (RFC 4034 §4.1.2)', () => {
  it('encodes the RFC 4034 §4.3 example: A MX RRSIG NSEC TYPE1234', () => {
    const rdata = nsecRdata('host.example.com', [T.A, T.MX, T.RRSIG, T.NSEC, 1234]);
    const bitmap = [0x00, 0x06, 0x40, 0x01, 0x00, 0x00, 0x00, 0x03, 0x04, 0x1b, ...new Array(26).fill(0), 0x20];
    expect([...rdata]).toEqual([...nameWire('host.example.com'), ...bitmap]);
  });

  it('lists each type once, in window order', () => {
    expect([...typeBitmap([T.CAA, T.A, T.A])]).toEqual([0x00, 0x01, 0x40, 0x01, 0x01, 0x40]);
  });
});

describe('successor names (RFC 4471)', () => {
  it('puts a \\000 label in front when it fits', () => {
    expect(successor('nope.example.com')).toBe('\\000.nope.example.com');
    expect(compareNames('nope.example.com', successor('nope.example.com'))).toBeLessThan(0);
  });

  it('stays a valid name, just after the original, for names at the length limit', () => {
    const l63 = 'a'.repeat(63);
    // 4 labels of 63 octets: 4 × 64 + 1 = 257 > 255, so 3 labels of 63 and one of 61 (wire 255).
    const full = ['b'.repeat(61), l63, l63, l63].join('.');
    expect(wireLength(full)).toBe(255);
    const next = successor(full);
    expect(wireLength(next)).toBeLessThanOrEqual(255);
    expect(next).toBe(['b'.repeat(60) + 'c', l63, l63, l63].join('.'));
    expect(compareNames(full, next)).toBeLessThan(0);
    const roomForOne = ['b'.repeat(60), l63, l63, l63].join('.');
    expect(successor(roomForOne)).toBe(['b'.repeat(60) + '\\000', l63, l63, l63].join('.'));
  });
});

describe('compact denial (RFC 9824)', () => {
  it('marks a nonexistent name with NXNAME and covers nothing but the name', () => {
    const nsec = compactNsec('nope.example.com', null, 300);
    expect(nsec).toMatchObject({ name: 'nope.example.com', type: T.NSEC, ttl: 300 });
    expect(nsec.data[0]).toEqual(nsecRdata('\\000.nope.example.com', [T.RRSIG, T.NSEC, T.NXNAME]));
  });

  it('lists the types present at a name with no data of the asked type', () => {
    expect(compactNsec('www.example.com', [T.A, T.AAAA], 300).data[0]).toEqual(nsecRdata('\\000.www.example.com', [T.A, T.AAAA, T.RRSIG, T.NSEC]));
  });
});

describe('the NSEC chain of a transfer', () => {
  it('links the names in canonical order and back to the apex, reusing unchanged records', () => {
    const owners = [
      { name: 'www.example.com', types: [T.A] },
      { name: 'example.com', types: [T.SOA, T.NS] },
      { name: '*.wild.example.com', types: [T.TXT] },
      { name: 'a.example.com', types: [T.A] },
    ];
    const chain = nsecChain(owners, 3600, new Map());
    expect([...chain.keys()]).toEqual(['example.com', 'a.example.com', '*.wild.example.com', 'www.example.com']);
    expect(chain.get('www.example.com')!.data[0]).toEqual(nsecRdata('example.com', [T.A, T.RRSIG, T.NSEC]));
    expect(chain.get('a.example.com')!.data[0]).toEqual(nsecRdata('*.wild.example.com', [T.A, T.RRSIG, T.NSEC]));
    const again = nsecChain(owners.slice(1), 3600, chain);
    // www is gone: the NSECs that did not point at it are the same objects (same cached signature).
    expect(again.get('example.com')).toBe(chain.get('example.com'));
    expect(again.get('a.example.com')).toBe(chain.get('a.example.com'));
    expect(again.get('*.wild.example.com')).not.toBe(chain.get('*.wild.example.com'));
  });
});
