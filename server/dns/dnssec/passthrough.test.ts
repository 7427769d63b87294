/**
 * What the passthrough picks for each kind of answer of a signed secondary (no sockets): the
 * stored RRSIGs over exactly the RRsets answered, the NSEC or NSEC3 proofs each denial needs, DS or
 * the proof of none at a referral; a missing signature leaves the RRset unsigned; the answer's
 * expiry is its first signature's; NSEC3 owners are no names.
 */
import fs from 'node:fs';
import packet from 'dns-packet';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServedRecord } from '../../store/types';
import { signZone, type SignedRecord } from '../../testing/signed-zone';
import { domainRow, IDENTITY } from '../../testing/zone-fixture';
import { resolve } from '../index/resolve';
import { RCODE, T, type RRset } from '../index/rrset';
import { Zone } from '../index/zone';
import { ZoneIndex } from '../index/zone-index';
import { createHandler } from '../wire/handler';
import { passResolution } from './passthrough';

const ZONE = 'example.test';
const SOA = { mname: IDENTITY.primary, rname: IDENTITY.hostmaster, serial: 2024010100, refresh: 10800, retry: 3600, expire: 1209600, minimum: 3600 };
const signed = { nsec: signZone(ZONE, SOA, 'nsec'), nsec3: signZone(ZONE, SOA, 'nsec3') };
afterAll(() => Object.values(signed).forEach((z) => fs.rmSync(z.dir, { recursive: true, force: true })));

function secondary(records: readonly SignedRecord[]): ZoneIndex {
  const index = new ZoneIndex();
  const rows: ServedRecord[] = records.map((r, i) => ({ id: i + 1, ...r }));
  index.put(new Zone({ ...domainRow(ZONE), kind: 'secondary', expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() }, rows, IDENTITY));
  return index;
}

/** Each RRset as "type owner" (RRSIGs with the type they cover), as a section lists them. */
const names = (sets: RRset[]) => sets.map((s) => `${s.type === T.RRSIG ? `RRSIG(${(s.data as Uint8Array[]).map((d) => (d[0]! << 8) | d[1]!).join(',')})` : s.type} ${s.name.replace(`.${ZONE}`, '')}`);
const TYPE: Record<string, number> = { A: T.A, TXT: T.TXT, MX: T.MX, DS: T.DS };

function ask(index: ZoneIndex, qname: string, qtype: string) {
  const res = resolve(index, { qname: qname === '@' ? ZONE : `${qname}.${ZONE}`, qtype: TYPE[qtype]! });
  return passResolution(res);
}

describe('a secondary signed with NSEC', () => {
  const index = secondary(signed.nsec.records);

  it('an answer carries the RRSIG over its type only, and expires with it', () => {
    const { res, expiresAt } = ask(index, 'www', 'A');
    expect(names(res.answer)).toEqual([`${T.A} www`, `RRSIG(${T.A}) www`]);
    const sig = res.answer[1]!.data[0] as Uint8Array;
    expect(expiresAt).toBe(Buffer.from(sig).readUInt32BE(8) * 1000);
  });

  it('the additional addresses the zone holds carry their RRSIGs', () => {
    const { res } = ask(index, '@', 'MX');
    expect(names(res.additional)).toEqual([`${T.A} mail`, `RRSIG(${T.A}) mail`]);
  });

  it('a DNAME answer: the DNAME signed, the CNAME made from it unsigned, then the wildcard answer and its proof', () => {
    const { res } = ask(index, 'x.moved', 'TXT');
    expect(names(res.answer)).toEqual([`${T.DNAME} moved`, `RRSIG(${T.DNAME}) moved`, `${T.CNAME} x.moved`, `${T.TXT} x.wild`, `RRSIG(${T.TXT}) x.wild`]);
    expect(names(res.authority)).toEqual([`${T.NSEC} *.wild`, `RRSIG(${T.NSEC}) *.wild`]);
  });

  it('a wildcard answer: the wildcard’s RRSIG under the asked name, and the NSEC proving the name does not exist', () => {
    const { res } = ask(index, 'x.wild', 'TXT');
    expect(names(res.answer)).toEqual([`${T.TXT} x.wild`, `RRSIG(${T.TXT}) x.wild`]);
    // Labels 3: the wildcard's owner without the "*", which tells the validator the answer was synthesized.
    expect((res.answer[1]!.data[0] as Uint8Array)[3]).toBe(3);
    expect(names(res.authority)).toEqual([`${T.NSEC} *.wild`, `RRSIG(${T.NSEC}) *.wild`]);
  });

  it('NODATA: the SOA and the NSEC at the name, each signed', () => {
    const { res } = ask(index, 'www', 'TXT');
    expect(names(res.authority)).toEqual([`${T.SOA} ${ZONE}`, `RRSIG(${T.SOA}) ${ZONE}`, `${T.NSEC} www`, `RRSIG(${T.NSEC}) www`]);
  });

  it('NXDOMAIN: the NSEC covering the name and the one covering the wildcard, once each', () => {
    const { res } = ask(index, 'nothing', 'A');
    expect(res.rcode).toBe(RCODE.NXDOMAIN);
    // "nothing" sorts after "moved"; "*.example.test" after the apex.
    expect(names(res.authority)).toEqual([`${T.SOA} ${ZONE}`, `RRSIG(${T.SOA}) ${ZONE}`, `${T.NSEC} moved`, `RRSIG(${T.NSEC}) moved`, `${T.NSEC} ${ZONE}`, `RRSIG(${T.NSEC}) ${ZONE}`]);
  });

  it('referrals: the DS and its RRSIG at a signed child; the NSEC at an unsigned one', () => {
    expect(names(ask(index, 'www.secure', 'A').res.authority)).toEqual([`${T.NS} secure`, `${T.DS} secure`, `RRSIG(${T.DS}) secure`]);
    expect(names(ask(index, 'www.insecure', 'A').res.authority)).toEqual([`${T.NS} insecure`, `${T.NSEC} insecure`, `RRSIG(${T.NSEC}) insecure`]);
  });

  it('ANY over TCP: the data at the name, each RRset with its own RRSIG, no NSEC', () => {
    const res = passResolution(resolve(index, { qname: `www.${ZONE}`, qtype: T.ANY, tcp: true })).res;
    expect(names(res.answer)).toEqual([`${T.A} www`, `RRSIG(${T.A}) www`, `${T.AAAA} www`, `RRSIG(${T.AAAA}) www`]);
    expect(names(resolve(index, { qname: `www.${ZONE}`, qtype: T.ANY, tcp: true }).answer)).toEqual([`${T.A} www`, `${T.AAAA} www`]);
  });

  it('the handler caches a DO answer until its first signature expires; without DO, no DNSSEC record', () => {
    const handler = createHandler(index, { transferAllowed: () => false });
    const q = (dnssecOk: boolean) =>
      packet.encode({
        id: 7,
        type: 'query',
        questions: [{ name: `www.${ZONE}`, type: 'A', class: 'IN' }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssecOk ? packet.DNSSEC_OK : 0, options: [] } as unknown as packet.Answer],
      });
    const first = packet.decode(handler.udp(q(true), '127.0.0.1')!);
    expect(first.answers!.map((a) => a.type)).toEqual(['A', 'RRSIG']);
    handler.udp(q(true), '127.0.0.1');
    const expiration = (first.answers![1] as unknown as { data: { expiration: number } }).data.expiration;
    expect(handler.cache.lastEntry!.until).toBe(expiration * 1000);
    expect(packet.decode(handler.udp(q(false), '127.0.0.1')!).answers!.map((a) => a.type)).toEqual(['A']);
  });

  it('a secondary of an unsigned primary: DO changes nothing', () => {
    const plain = secondary(signed.nsec.records.filter((r) => !['RRSIG', 'NSEC', 'DNSKEY'].includes(r.record_type)));
    expect(names(ask(plain, 'nothing', 'A').res.authority)).toEqual([`${T.SOA} ${ZONE}`]);
    expect(names(ask(plain, 'www', 'A').res.answer)).toEqual([`${T.A} www`]);
  });

  it('a missing stored RRSIG leaves its RRset unsigned, and nothing breaks', () => {
    const without = secondary(signed.nsec.records.filter((r) => !(r.name === 'www' && r.record_type === 'RRSIG')));
    const { res, expiresAt } = ask(without, 'www', 'A');
    expect(names(res.answer)).toEqual([`${T.A} www`]);
    expect(expiresAt).toBe(0);
  });
});

describe('a secondary signed with NSEC3', () => {
  const index = secondary(signed.nsec3.records);
  const hashed = signed.nsec3.records.filter((r) => r.record_type === 'NSEC3').map((r) => r.name);

  it('NSEC3 owners are no names of the zone', () => {
    const res = resolve(index, { qname: `${hashed[0]}.${ZONE}`, qtype: T.A });
    expect(res.rcode).toBe(RCODE.NXDOMAIN);
    expect(index.get(ZONE)!.nodes.get(`${hashed[0]}.${ZONE}`)).toBeUndefined();
  });

  it('NXDOMAIN: the closest encloser proof and the wildcard covered, each NSEC3 signed (RFC 5155 §7.2.2)', () => {
    const { res } = ask(index, 'deep.nothing', 'A');
    const proofs = res.authority.filter((s) => s.type === T.NSEC3);
    // The apex matched, "nothing" (the next closer) covered, "*" covered: two or three NSEC3s as hashes fall.
    expect(proofs.length).toBeGreaterThanOrEqual(2);
    expect(res.authority.filter((s) => s.type === T.RRSIG).length).toBe(1 + proofs.length);
    for (const p of proofs) expect(hashed).toContain(p.name.slice(0, -(ZONE.length + 1)));
  });

  it('NODATA at an empty non-terminal: the NSEC3 matching it', () => {
    const { res } = ask(index, 'ent', 'A');
    expect(res.authority.filter((s) => s.type === T.NSEC3)).toHaveLength(1);
  });
});
