/**
 * DS records at a delegation (RFC 4035 §2.4): answered from the parent side of the cut,
 * and in a signed parent carried, signed, in referrals instead of the NSEC that denies them.
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../wire/handler';
import { testKey, verifies } from '../../testing/test-keys';
import { resolve } from './resolve';
import { RCODE, T, type RRset } from './rrset';
import { Zone } from './zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';
import { ZoneIndex } from './zone-index';

const DIGEST = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';

function index(): ZoneIndex {
  const r = (name: string, type: string, content: string) => row(1, name, type, content, 600);
  const zone = new Zone(
    domainRow('example.com'),
    [r('@', 'NS', 'ns1.zonedeck.test'), r('secure', 'NS', 'ns1.example.net'), r('secure', 'DS', `12345 13 2 ${DIGEST}`), r('plain', 'NS', 'ns1.example.net')],
    IDENTITY,
  );
  const idx = new ZoneIndex();
  idx.put(zone);
  return idx;
}

const rdataHex = (set: RRset) => (set.data as Uint8Array[]).map((d) => Buffer.from(d).toString('hex'));

describe('DS at a delegation', () => {
  it('is answered with authority from the parent side; a cut without one is NODATA', () => {
    const idx = index();
    const res = resolve(idx, { qname: 'secure.example.com', qtype: T.DS });
    expect(res).toMatchObject({ rcode: RCODE.NOERROR, aa: true, authority: [] });
    expect(res.answer.map((s) => [s.name, s.type])).toEqual([['secure.example.com', T.DS]]);
    expect(rdataHex(res.answer[0]!)).toEqual([`30390d02${DIGEST.toLowerCase()}`]);
    expect(resolve(idx, { qname: 'plain.example.com', qtype: T.DS })).toMatchObject({ rcode: RCODE.NOERROR, aa: true, answer: [], denial: { types: [T.NS] } });
    // Any other type at the cut is a referral, DS left out of unsigned answers.
    expect(resolve(idx, { qname: 'secure.example.com', qtype: T.A }).authority.map((s) => s.type)).toEqual([T.NS]);
  });

  it('travels signed in the referrals of a signed parent (RFC 4035 §3.1.4)', () => {
    const idx = index();
    const { key, row: keyRow } = testKey('example.com');
    idx.get('example.com')!.setKeys([key]);
    const handler = createHandler(idx, { transferAllowed: () => false });
    const ask = (name: string, type: string) =>
      packet.decode(
        handler.udp(
          packet.encode({
            id: 1,
            type: 'query',
            questions: [{ name, type: type as 'A', class: 'IN' }],
            additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
          }),
          '127.0.0.1',
        )!,
      );
    const publicKey = Buffer.from(keyRow.public_key, 'base64');

    const referral = ask('www.secure.example.com', 'A');
    expect(referral.authorities!.map((a) => a.type)).toEqual(['NS', 'DS', 'RRSIG']);
    const sig = referral.authorities![2] as unknown as { data: unknown };
    const rrsig = (packet as unknown as { rrsig: { encode(d: unknown): Buffer } }).rrsig.encode(sig.data).subarray(2);
    const ds: RRset = { name: 'secure.example.com', type: T.DS, ttl: 600, data: [Buffer.from(`30390d02${DIGEST}`, 'hex')] };
    expect(verifies(rrsig, ds, publicKey, 'example.com')).toBe(true);

    const direct = ask('secure.example.com', 'DS');
    expect(direct.answers!.map((a) => a.type)).toEqual(['DS', 'RRSIG']);
    // Without a DS the referral still proves there is none.
    expect(ask('www.plain.example.com', 'A').authorities!.map((a) => a.type)).toEqual(['NS', 'NSEC', 'RRSIG']);
  });
});
