/** DNAME substitution (RFC 6672 §3.2) in the resolver, and on the wire as a client decodes it. */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { testKey } from '../../testing/test-keys';
import { createHandler } from '../wire/handler';
import { resolve } from './resolve';
import { RCODE, T, type RRset } from './rrset';
import { Zone } from './zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';
import { ZoneIndex } from './zone-index';

function index(): ZoneIndex {
  const r = (name: string, type: string, content: string) => row(1, name, type, content, 600);
  const zone = new Zone(
    domainRow('example.com'),
    [r('@', 'NS', 'ns1.zonedeck.test'), r('old', 'DNAME', 'example.net'), r('alias', 'DNAME', 'target.example.com'), r('www.target', 'A', '192.0.2.1'), r('loop', 'DNAME', 'x.loop.example.com')],
    IDENTITY,
  );
  const idx = new ZoneIndex();
  idx.put(zone);
  return idx;
}

const show = (sets: RRset[]) => sets.map((s) => `${s.name} ${s.type} ${s.data.map((d) => (d instanceof Uint8Array ? Buffer.from(d).toString('hex') : String(d))).join(',')}`);

describe('DNAME', () => {
  it('answers a name below it with the DNAME and a synthesized CNAME; the client follows it out of the zone', () => {
    const res = resolve(index(), { qname: 'www.sub.old.example.com', qtype: T.A });
    expect(res.rcode).toBe(RCODE.NOERROR);
    expect(res.aa).toBe(true);
    expect(show(res.answer)).toEqual(['old.example.com 39 076578616d706c65036e657400', 'www.sub.old.example.com 5 www.sub.example.net']);
    expect(res.answer[1]!.ttl).toBe(600); // RFC 6672 §3.1: the CNAME takes the DNAME's TTL
  });

  it('goes on inside the zone at the new name', () => {
    const res = resolve(index(), { qname: 'www.alias.example.com', qtype: T.A });
    expect(show(res.answer)).toEqual([expect.stringMatching(/^alias\.example\.com 39 /), 'www.alias.example.com 5 www.target.example.com', 'www.target.example.com 1 192.0.2.1']);
    expect(resolve(index(), { qname: 'nope.alias.example.com', qtype: T.A })).toMatchObject({ rcode: RCODE.NXDOMAIN });
  });

  it('does not redirect its own name, where the DNAME is data like any other', () => {
    expect(show(resolve(index(), { qname: 'old.example.com', qtype: T.DNAME }).answer)).toEqual([expect.stringMatching(/^old\.example\.com 39 /)]);
    expect(resolve(index(), { qname: 'old.example.com', qtype: T.A })).toMatchObject({ rcode: RCODE.NOERROR, answer: [], denial: { types: [T.DNAME] } });
  });

  it('answers YXDOMAIN when the new name would be too long (RFC 6672 §2.2), and stops loops', () => {
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.old.example.com`;
    const idx = index();
    idx.get('example.com')!.replaceName('old', [row(1, 'old', 'DNAME', `${'d'.repeat(60)}.example.net`, 600)]);
    const res = resolve(idx, { qname: long, qtype: T.A });
    expect(res.rcode).toBe(RCODE.YXDOMAIN);
    expect(res.answer.map((s) => s.type)).toEqual([T.DNAME]);
    expect(resolve(index(), { qname: 'a.loop.example.com', qtype: T.A }).answer.length).toBeLessThanOrEqual(16);
  });

  it('is signed in a signed zone, the synthesized CNAME too', () => {
    const idx = index();
    idx.get('example.com')!.setKeys([testKey('example.com').key]);
    const handler = createHandler(idx, { transferAllowed: () => false });
    const q = packet.encode({
      id: 1,
      type: 'query',
      questions: [{ name: 'a.old.example.com', type: 'A', class: 'IN' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
    });
    const out = packet.decode(handler.udp(q, '127.0.0.1')!);
    expect(out.answers!.map((a) => a.type)).toEqual(['DNAME', 'RRSIG', 'CNAME', 'RRSIG']);
  });

  it('substitutes as the examples of RFC 6672 §2.2 do: whole labels only, the owner itself never', () => {
    const zone = new Zone(
      domainRow('example.com'),
      [row(1, '@', 'NS', 'ns1.zonedeck.test'), row(1, 'b', 'DNAME', 'example.net', 600), row(1, 'ab', 'A', '192.0.2.5'), row(1, 'x.y', 'DNAME', 'y.example.com', 600)],
      IDENTITY,
    );
    const idx = new ZoneIndex();
    idx.put(zone);
    const cname = (qname: string) => resolve(idx, { qname, qtype: T.A }).answer.find((a) => a.type === T.CNAME)?.data[0];
    // QNAME a.b.example.com, DNAME b.example.com -> example.net: a.example.net (and deeper names keep their labels).
    expect(cname('a.b.example.com')).toBe('a.example.net');
    expect(cname('c.a.b.example.com')).toBe('c.a.example.net');
    // "ab.example.com" does not end in the label "b": no match, its own data answers.
    expect(show(resolve(idx, { qname: 'ab.example.com', qtype: T.A }).answer)).toEqual(['ab.example.com 1 192.0.2.5']);
    // The owner is not redirected (§2.3).
    expect(cname('b.example.com')).toBeUndefined();
    // a.x.y.example.com under x.y.example.com -> y.example.com: a.y.example.com, looked up on in the zone (NXDOMAIN there).
    const inZone = resolve(idx, { qname: 'a.x.y.example.com', qtype: T.A });
    expect(inZone.answer.find((a) => a.type === T.CNAME)?.data[0]).toBe('a.y.example.com');
    expect(inZone.rcode).toBe(RCODE.NXDOMAIN);
  });

  it('reaches a client as DNAME then CNAME', () => {
    const handler = createHandler(index(), { transferAllowed: () => false });
    const out = packet.decode(handler.udp(packet.encode({ id: 1, type: 'query', questions: [{ name: 'a.old.example.com', type: 'A', class: 'IN' }] }), '127.0.0.1')!);
    expect(out.answers!.map((a) => [a.name, a.type, (a as { data: unknown }).data])).toEqual([
      ['old.example.com', 'DNAME', 'example.net'],
      ['a.old.example.com', 'CNAME', 'a.example.net'],
    ]);
  });
});
