/** NSEC3 hashes and white lies as a validator reads them: RFC 9276's parameters, the hash arithmetic at both ends of the space, the chain of a transfer. */
import { describe, expect, it } from 'vitest';
import { base32hexText } from '../../core/rdata/dnssec-fields';
import { T } from '../index/rrset';
import { typeBitmap } from './denial';
import { coveringNsec3, hashAfter, hashBefore, hashedOwner, hashOf, matchingNsec3, nsec3Chain, nsec3ParamRRset, nsec3Types } from './nsec3';
import { nextCloser } from './online-nsec3';

const ZERO = Buffer.alloc(20);
const ONES = Buffer.alloc(20, 0xff);
const big = (h: Uint8Array) => BigInt(`0x${Buffer.from(h).toString('hex')}`);
/** Whether `h` lies strictly between an NSEC3's owner and next hash, wrapping past the end (RFC 5155 §8.3). */
const covers = (owner: Buffer, next: Buffer, h: Buffer) =>
  Buffer.compare(owner, next) < 0 ? Buffer.compare(owner, h) < 0 && Buffer.compare(h, next) < 0 : Buffer.compare(h, owner) > 0 || Buffer.compare(h, next) < 0;
/** The fields of an NSEC3 rdata. */
function fields(rdata: Buffer) {
  const saltLength = rdata[4]!;
  const hashLength = rdata[5 + saltLength]!;
  const at = 6 + saltLength;
  return { algorithm: rdata[0], flags: rdata[1], iterations: rdata.readUInt16BE(2), saltLength, next: rdata.subarray(at, at + hashLength), bitmap: rdata.subarray(at + hashLength) };
}

describe('NSEC3 hashes (RFC 5155 §5) with RFC 9276 parameters', () => {
  it('hash as ldns-nsec3-hash -t 0 -s "" does', () => {
    expect(hashedOwner(hashOf('example.com'), 'example.com')).toBe('onib9mgub9h0rml3cdf5bgrj59dkjhvk.example.com');
    expect(hashedOwner(hashOf('www.example.com'), 'example.com')).toBe('mifdndt3nff3od53o7tla1hrff95jkuk.example.com');
  });

  it('step one up and one down, wrapping round at 0 and 2^160-1', () => {
    const h = hashOf('www.example.com');
    expect(big(hashAfter(h))).toBe(big(h) + 1n);
    expect(big(hashBefore(h))).toBe(big(h) - 1n);
    expect(hashAfter(ONES)).toEqual(ZERO);
    expect(hashBefore(ZERO)).toEqual(ONES);
    const carry = Buffer.from(ZERO);
    carry[19] = 0xff;
    expect(big(hashAfter(carry))).toBe(0x100n);
    expect(hashBefore(hashAfter(carry))).toEqual(carry);
    // The input is never changed in place.
    expect(ONES).toEqual(Buffer.alloc(20, 0xff));
  });

  it('the white lie covering a hash covers it and nothing else, also at both ends', () => {
    for (const h of [hashOf('nope.example.com'), ZERO, ONES]) {
      const owner = hashBefore(h);
      const next = hashAfter(h);
      expect(covers(owner, next, h)).toBe(true);
      expect(covers(owner, next, hashAfter(next))).toBe(false);
      expect(covers(owner, next, hashBefore(owner))).toBe(false);
    }
    const lie = coveringNsec3('example.com', 'nope.example.com', 3600);
    const h = hashOf('nope.example.com');
    expect(lie.name).toBe(hashedOwner(hashBefore(h), 'example.com'));
    expect(fields(lie.data[0] as Buffer).next).toEqual(hashAfter(h));
    expect(fields(lie.data[0] as Buffer).bitmap.length).toBe(0);
  });
});

describe('NSEC3 records', () => {
  it('carry SHA-1, no opt-out flag, 0 iterations and no salt; NSEC3PARAM says the same (1 0 0 -)', () => {
    const m = matchingNsec3('example.com', 'www.example.com', [T.A, T.RRSIG], 3600);
    expect(m.name).toBe(`${base32hexText(hashOf('www.example.com')).toLowerCase()}.example.com`);
    const f = fields(m.data[0] as Buffer);
    expect([f.algorithm, f.flags, f.iterations, f.saltLength]).toEqual([1, 0, 0, 0]);
    expect(f.next).toEqual(hashAfter(hashOf('www.example.com')));
    expect(f.bitmap).toEqual(typeBitmap([T.A, T.RRSIG]));
    expect([...(nsec3ParamRRset('example.com').data[0] as Buffer)]).toEqual([1, 0, 0, 0, 0]);
  });

  it('list RRSIG where something is signed, NS alone at an unsigned cut, nothing at an empty non-terminal', () => {
    expect(nsec3Types([T.A, T.TXT], false)).toEqual([T.A, T.TXT, T.RRSIG]);
    expect(nsec3Types([T.NS], true)).toEqual([T.NS]);
    expect(nsec3Types([T.NS, T.DS, T.A], true)).toEqual([T.NS, T.DS, T.RRSIG]);
    expect(nsec3Types([], false)).toEqual([]);
  });

  it('find the next closer name below the closest encloser', () => {
    expect(nextCloser('a.b.c.example.com', 'example.com')).toBe('c.example.com');
    expect(nextCloser('a.b.c.example.com', 'b.c.example.com')).toBe('a.b.c.example.com');
    expect(nextCloser('x.com', '')).toBe('com');
  });

  it('chain a transfer in hash order, the last back to the first, reusing unchanged records', () => {
    const names = ['example.com', 'www.example.com', 'c.example.com', 'a.b.c.example.com', 'b.c.example.com'];
    const chain = nsec3Chain(
      'example.com',
      names.map((name) => ({ name, types: [] })),
      3600,
      new Map(),
    );
    const hashes = names.map(hashOf).sort(Buffer.compare);
    expect([...chain.keys()]).toEqual(hashes.map((h) => hashedOwner(h, 'example.com')));
    [...chain.values()].forEach((set, i) => expect(fields(set.data[0] as Buffer).next).toEqual(hashes[(i + 1) % hashes.length]));
    const again = nsec3Chain(
      'example.com',
      names.map((name) => ({ name, types: name === 'www.example.com' ? [T.A, T.RRSIG] : [] })),
      3600,
      chain,
    );
    const www = hashedOwner(hashOf('www.example.com'), 'example.com');
    for (const [owner, set] of again) expect(set === chain.get(owner)).toBe(owner !== www);
  });
});
