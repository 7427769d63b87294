/**
 * Signed answers of a zone in nsec3 mode through the query handler, decoded as a client would:
 * which NSEC3 white lies each negative answer carries, that their RRSIGs verify with the zone's
 * key, and that switching the mode drops the answers cached under the other one.
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { exampleIndex, row } from '../../testing/zone-fixture';
import { testKey, verifies } from '../../testing/test-keys';
import { T } from '../index/rrset';
import { createHandler } from '../wire/handler';
import { coveringNsec3, hashedOwner, hashOf, matchingNsec3 } from './nsec3';

type Rec = { name: string; type: string; ttl: number; data: any };
const codecs = packet as unknown as Record<'nsec3' | 'rrsig', { encode(d: unknown): Buffer }>;
/** The wire rdata of a decoded record (the codecs write the length first). */
const rdata = (r: Rec) => codecs[r.type.toLowerCase() as 'nsec3' | 'rrsig'].encode(r.data).subarray(2);

function nsec3Zone() {
  const index = exampleIndex();
  const { key, row } = testKey('example.com');
  const zone = index.get('example.com')!;
  zone.setKeys([key]);
  zone.setDenial('nsec3');
  const handler = createHandler(index, { transferAllowed: () => true });
  const ask = (name: string, type = 'A', dnssec = true) => {
    const q = packet.encode({
      id: 9,
      type: 'query',
      questions: [{ name, type: type as 'A', class: 'IN' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssec ? packet.DNSSEC_OK : 0, options: [] } as unknown as packet.Answer],
    });
    const d = packet.decode(handler.udp(q, '127.0.0.1')!) as { rcode?: string; answers: Rec[]; authorities: Rec[] };
    return { rcode: d.rcode, answers: d.answers, authorities: d.authorities };
  };
  return { zone, ask, publicKey: Buffer.from(row.public_key, 'base64') };
}

const owners = (recs: Rec[]) => recs.filter((r) => r.type === 'NSEC3').map((r) => r.name);

describe('negative answers in nsec3 mode', () => {
  it('NXDOMAIN keeps its rcode and proves it with the closest encloser, the next closer name and the wildcard', () => {
    const { ask, publicKey } = nsec3Zone();
    const r = ask('x.nope.example.com');
    expect(r.rcode).toBe('NXDOMAIN');
    const expected = [matchingNsec3('example.com', 'example.com', [], 0), coveringNsec3('example.com', 'nope.example.com', 0), coveringNsec3('example.com', '*.example.com', 0)];
    expect(owners(r.authorities)).toEqual(expected.map((s) => s.name));
    for (const nsec3 of r.authorities.filter((a) => a.type === 'NSEC3')) {
      expect(nsec3.ttl).toBe(3600);
      const sig = r.authorities.find((a) => a.type === 'RRSIG' && a.name === nsec3.name)!;
      expect(sig.data.labels).toBe(3);
      expect(verifies(rdata(sig), { name: nsec3.name, type: T.NSEC3, ttl: nsec3.ttl, data: [rdata(nsec3)] }, publicKey, 'example.com')).toBe(true);
    }
    expect(r.authorities.find((a) => a.type === 'NSEC3')!.data).toMatchObject({ algorithm: 1, flags: 0, iterations: 0 });
  });

  it('NODATA, an empty non-terminal and a wildcard-synthesized name: one NSEC3 matching the name', () => {
    const { ask } = nsec3Zone();
    const at = (name: string) => hashedOwner(hashOf(name), 'example.com');
    const nodata = ask('www.example.com', 'MX');
    expect(nodata.rcode).toBe('NOERROR');
    expect(owners(nodata.authorities)).toEqual([at('www.example.com')]);
    expect(nodata.authorities.find((a) => a.type === 'NSEC3')!.data.rrtypes).toEqual(['A', 'AAAA', 'RRSIG']);
    expect(ask('b.c.example.com', 'TXT').authorities.find((a) => a.type === 'NSEC3')!.data.rrtypes).toEqual([]);
    const wild = ask('anything.wild.example.com', 'MX').authorities.find((a) => a.type === 'NSEC3')!;
    expect([wild.name, wild.data.rrtypes]).toEqual([at('anything.wild.example.com'), ['A', 'TXT', 'RRSIG']]);
    // Asked for NSEC, a name has none in this mode: NODATA like any other type.
    expect(owners(ask('www.example.com', 'NSEC').authorities)).toEqual([at('www.example.com')]);
  });

  it('without DO: the same answers as an unsigned zone', () => {
    const { ask } = nsec3Zone();
    const r = ask('nope.example.com', 'A', false);
    expect(r.rcode).toBe('NXDOMAIN');
    expect(r.authorities.map((a) => a.type)).toEqual(['SOA']);
  });

  it('switching the mode drops the cached answers: the next one is compact, then NSEC3 again', () => {
    const { ask, zone } = nsec3Zone();
    expect(ask('nope.example.com').rcode).toBe('NXDOMAIN');
    zone.setDenial('compact');
    const compact = ask('nope.example.com');
    expect(compact.rcode).toBe('NOERROR');
    expect(compact.authorities.map((a) => a.type)).toEqual(['SOA', 'RRSIG', 'NSEC', 'RRSIG']);
    expect(ask('example.com', 'NSEC3PARAM').answers).toEqual([]);
    zone.setDenial('nsec3');
    expect(ask('nope.example.com').rcode).toBe('NXDOMAIN');
    expect(ask('example.com', 'NSEC3PARAM').answers.map((a) => a.type)).toEqual(['NSEC3PARAM', 'RRSIG']);
  });

  it('NSEC3PARAM is published only while the zone is signed here, and outlives a change of the apex records', () => {
    const { ask, zone } = nsec3Zone();
    zone.replaceName('@', [row(1, '@', 'NS', 'ns1.zonedeck.test', 3600), row(1, '@', 'TXT', 'changed')]);
    expect(ask('example.com', 'NSEC3PARAM').answers.map((a) => a.type)).toEqual(['NSEC3PARAM', 'RRSIG']);
    zone.setKeys([]);
    expect(ask('example.com', 'NSEC3PARAM').answers).toEqual([]);
    zone.setKeys([testKey('example.com').key]);
    expect(ask('example.com', 'NSEC3PARAM').answers.map((a) => a.type)).toEqual(['NSEC3PARAM', 'RRSIG']);
  });
});
