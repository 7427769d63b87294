/**
 * Signed answers through the query handler, decoded as a client would: RRSIGs that verify
 * with the zone's key, compact denial for NXDOMAIN and NODATA, wildcards, referrals, the
 * answer cache keyed by the DO bit, and a signed zone transfer.
 */
import packet from 'dns-packet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../wire/handler';
import { T, type RRset } from '../index/rrset';
import { exampleIndex } from '../../testing/zone-fixture';
import { parseRrsig, testKey, verifies } from '../../testing/test-keys';

/** The TCP answers of a query that needs no store (everything but IXFR). */
function syncTcp(h: { tcp(m: Buffer, a: string): Buffer[] | Promise<Buffer[]> }, msg: Buffer, address: string): Buffer[] {
  const out = h.tcp(msg, address);
  if (!Array.isArray(out)) throw new Error('expected a synchronous answer');
  return out;
}

type Q = { name: string; type?: string; do?: boolean };
type Rec = { name: string; type: string; ttl: number; data: any };

function query(q: Q): Buffer {
  return packet.encode({
    id: 7,
    type: 'query',
    questions: [{ name: q.name, type: (q.type ?? 'A') as 'A', class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: q.do === false ? 0 : packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
  });
}

function setup() {
  const index = exampleIndex();
  const { key, row } = testKey('example.com');
  index.get('example.com')!.setKeys([key]);
  const handler = createHandler(index, { transferAllowed: () => true });
  const ask = (q: Q) => {
    const d = packet.decode(handler.udp(query(q), '127.0.0.1')!);
    return { rcode: (d as { rcode?: string }).rcode, answers: d.answers as Rec[], authorities: d.authorities as Rec[], additionals: d.additionals as Rec[] };
  };
  return { index, handler, ask, key, publicKey: Buffer.from(row.public_key, 'base64') };
}

/** dns-packet's RRSIG codec, which its type declarations leave out. */
const rrsigCodec = (packet as unknown as { rrsig: { encode(d: unknown): Buffer } }).rrsig;
/** The wire rdata of a decoded RRSIG (the codec writes the length first). */
const rrsigRdata = (r: Rec) => rrsigCodec.encode(r.data).subarray(2);
const types = (recs: Rec[]) => recs.map((r) => (r.type === 'RRSIG' ? `RRSIG ${r.data.typeCovered}` : r.type));

afterEach(() => vi.useRealTimers());

describe('signed answers (DO bit)', () => {
  it('carry an RRSIG that verifies with the DNSKEY; without DO there is none', () => {
    const { ask, publicKey, key } = setup();
    const r = ask({ name: 'www.example.com' });
    expect(types(r.answers)).toEqual(['A', 'A', 'RRSIG A']);
    const set: RRset = { name: 'www.example.com', type: T.A, ttl: r.answers[0]!.ttl, data: r.answers.filter((a) => a.type === 'A').map((a) => a.data) };
    const sig = r.answers.find((a) => a.type === 'RRSIG')!;
    expect(sig.data).toMatchObject({ algorithm: 13, labels: 3, keyTag: key.tag, signersName: 'example.com' });
    expect(verifies(rrsigRdata(sig), set, publicKey, 'example.com')).toBe(true);
    expect(types(ask({ name: 'www.example.com', do: false }).answers)).toEqual(['A', 'A']);
  });

  it('publish the DNSKEY at the apex, signed by itself', () => {
    const { ask, key } = setup();
    const r = ask({ name: 'example.com', type: 'DNSKEY' });
    expect(types(r.answers)).toEqual(['DNSKEY', 'RRSIG DNSKEY']);
    expect(r.answers[0]!.data).toMatchObject({ flags: 257, algorithm: 13 });
    expect(r.answers[1]!.data.keyTag).toBe(key.tag);
  });

  it('answer a nonexistent name with NOERROR and one NSEC marked NXNAME (RFC 9824); without DO, NXDOMAIN', () => {
    const { ask } = setup();
    const r = ask({ name: 'nope.example.com' });
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers).toEqual([]);
    expect(types(r.authorities)).toEqual(['SOA', 'RRSIG SOA', 'NSEC', 'RRSIG NSEC']);
    const nsec = r.authorities.find((a) => a.type === 'NSEC')!;
    expect(nsec.name).toBe('nope.example.com');
    // dns-packet shows the \000 label as the octet itself.
    expect(nsec.data.nextDomain).toBe('\u0000.nope.example.com');
    expect(nsec.data.rrtypes).toEqual(['RRSIG', 'NSEC', 'UNKNOWN_128']);
    expect(nsec.ttl).toBe(3600);
    expect(ask({ name: 'nope.example.com', do: false }).rcode).toBe('NXDOMAIN');
  });

  it('answer NODATA with an NSEC listing the types that are there', () => {
    const { ask } = setup();
    const r = ask({ name: 'www.example.com', type: 'MX' });
    expect(r.rcode).toBe('NOERROR');
    expect(r.authorities.find((a) => a.type === 'NSEC')!.data.rrtypes).toEqual(['A', 'AAAA', 'RRSIG', 'NSEC']);
    // An empty non-terminal has nothing but the NSEC and its signature.
    expect(ask({ name: 'b.c.example.com', type: 'TXT' }).authorities.find((a) => a.type === 'NSEC')!.data.rrtypes).toEqual(['RRSIG', 'NSEC']);
    // The apex lists its own DNSKEY, and the CDS and CDNSKEY made from it (RFC 7344).
    expect(ask({ name: 'example.com', type: 'TXT' }).authorities.find((a) => a.type === 'NSEC')!.data.rrtypes).toEqual(['A', 'NS', 'SOA', 'MX', 'RRSIG', 'NSEC', 'DNSKEY', 'CDS', 'CDNSKEY']);
  });

  it('sign a wildcard answer under the asked name, so it needs no proof', () => {
    const { ask, publicKey } = setup();
    const r = ask({ name: 'anything.wild.example.com', type: 'TXT' });
    expect(types(r.answers)).toEqual(['TXT', 'RRSIG TXT']);
    const sig = r.answers[1]!;
    expect(sig.data.labels).toBe(4);
    const set: RRset = { name: 'anything.wild.example.com', type: T.TXT, ttl: r.answers[0]!.ttl, data: [r.answers[0]!.data] };
    expect(verifies(rrsigRdata(sig), set, publicKey, 'example.com')).toBe(true);
    expect(r.authorities).toEqual([]);
  });

  it('give a referral the NSEC that proves the child has no DS, and leave NS and glue unsigned', () => {
    const { ask } = setup();
    const r = ask({ name: 'x.sub.example.com' });
    expect(types(r.authorities)).toEqual(['NS', 'NS', 'NSEC', 'RRSIG NSEC']);
    expect(r.authorities[2]!.data.rrtypes).toEqual(['NS', 'RRSIG', 'NSEC']);
    expect(types(r.additionals.filter((a) => a.type !== 'OPT'))).toEqual(['A']);
  });

  it('are cached apart from unsigned answers, until their signatures are renewed the next day', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 15, 12));
    const { ask, handler } = setup();
    expect(types(ask({ name: 'www.example.com', do: false }).answers)).toEqual(['A', 'A']);
    const first = ask({ name: 'www.example.com' }).answers.find((a) => a.type === 'RRSIG')!;
    expect(handler.cache.size).toBe(2);
    expect(ask({ name: 'www.example.com' }).answers.find((a) => a.type === 'RRSIG')!.data).toEqual(first.data);
    vi.setSystemTime(Date.UTC(2026, 0, 16, 12));
    const next = ask({ name: 'www.example.com' }).answers.find((a) => a.type === 'RRSIG')!;
    expect(next.data.inception - first.data.inception).toBe(86400);
  });

  it('stop when the zone stops being signed', () => {
    const { ask, index } = setup();
    expect(types(ask({ name: 'www.example.com' }).answers)).toContain('RRSIG A');
    index.get('example.com')!.setKeys([]);
    expect(types(ask({ name: 'www.example.com' }).answers)).toEqual(['A', 'A']);
    expect(ask({ name: 'example.com', type: 'DNSKEY' }).answers).toEqual([]);
    expect(ask({ name: 'nope.example.com' }).rcode).toBe('NXDOMAIN');
  });
});

describe('odd questions to a signed zone', () => {
  it('answers an explicit NSEC query with the NSEC itself, and NXNAME with FORMERR (RFC 9824 §3.5)', () => {
    const { ask, handler } = setup();
    const r = ask({ name: 'www.example.com', type: 'NSEC' });
    expect(types(r.answers)).toEqual(['NSEC', 'RRSIG NSEC']);
    expect(r.authorities).toEqual([]);
    const msg = query({ name: 'www.example.com', type: 'A' });
    msg.writeUInt16BE(128, 12 + 17); // the QTYPE after "www.example.com" (17 octets) := NXNAME
    expect((packet.decode(handler.udp(msg, '127.0.0.1')!) as { rcode?: string }).rcode).toBe('FORMERR');
  });

  it('never throws, whatever the bytes of a DO query', () => {
    const { handler } = setup();
    const seed = query({ name: 'x.wild.example.com', type: 'TXT' });
    for (let i = 0; i < 5_000; i++) {
      const msg = Buffer.from(seed);
      for (let k = 0; k < 1 + (i % 4); k++) msg[12 + ((i * 7919 + k * 104729) % (msg.length - 12))] = (i * 31 + k * 17) & 0xff;
      expect(() => handler.udp(msg, '127.0.0.1')).not.toThrow();
      expect(() => handler.tcp(msg, '127.0.0.1')).not.toThrow();
    }
  });
});

describe('a signed zone transfer', () => {
  it('signs every authoritative RRset and links every authoritative name in one NSEC chain', () => {
    const { handler, publicKey } = setup();
    const records = syncTcp(handler, query({ name: 'example.com', type: 'AXFR', do: false }), '127.0.0.1').flatMap((m) => packet.decode(m).answers as Rec[]);
    expect(records[0]!.type).toBe('SOA');
    expect(records.at(-1)!.type).toBe('SOA');
    const sets = new Map<string, Rec[]>();
    for (const r of records.slice(1, -1)) {
      const k = `${r.name} ${r.type === 'RRSIG' ? `RRSIG ${r.data.typeCovered}` : r.type}`;
      sets.set(k, [...(sets.get(k) ?? []), r]);
    }
    const signed = (name: string, type: string) => sets.has(`${name} RRSIG ${type}`);
    expect(signed('example.com', 'SOA') && signed('example.com', 'NS') && signed('example.com', 'DNSKEY')).toBe(true);
    expect(signed('www.example.com', 'A') && signed('*.wild.example.com', 'TXT')).toBe(true);
    // RFC 4035 §2.2: neither the NS set at a cut nor glue is signed.
    expect(signed('sub.example.com', 'NS')).toBe(false);
    expect(signed('ns1.sub.example.com', 'A')).toBe(false);
    // One NSEC per authoritative name and delegation point, none for glue, the chain closed at the apex.
    const nsecs = records.filter((r) => r.type === 'NSEC');
    const byName = new Map(nsecs.map((n) => [n.name, n.data.nextDomain as string]));
    expect(byName.has('ns1.sub.example.com')).toBe(false);
    expect(byName.get('sub.example.com')).toBeDefined();
    let at = 'example.com';
    const seen = new Set<string>();
    do {
      seen.add(at);
      at = byName.get(at)!;
    } while (at !== 'example.com' && !seen.has(at));
    expect(seen.size).toBe(nsecs.length);
    // The SOA's signature verifies like any other.
    const soaSig = sets.get('example.com RRSIG SOA')![0]!;
    const soa: RRset = { name: 'example.com', type: T.SOA, ttl: records[0]!.ttl, data: [records[0]!.data] };
    expect(verifies(rrsigRdata(soaSig), soa, publicKey, 'example.com')).toBe(true);
    expect(parseRrsig(rrsigRdata(soaSig), 'example.com').labels).toBe(2);
  });
});
