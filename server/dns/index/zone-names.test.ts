import { describe, expect, it } from 'vitest';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import type { RecordRow } from '../../store/types';
import { T } from './rrset';
import { Zone } from './zone';
import { ZoneIndex } from './zone-index';
import { ZoneNames, type PutInfo } from './zone-names';

const IDENTITY = { primary: 'ns1.zonedeck.test', hostmaster: 'hostmaster.zonedeck.test' };
const domain = (name: string) =>
  ({ id: 1, name, serial_number: 1, refresh_interval: 10800, retry_interval: 3600, expire_interval: 1209600, minimum_ttl: 300, dnssec_enabled: 0, dnssec_disabled_at: null, updated_at: '' }) as never;
let id = 0;
const row = (name: string, record_type: string, content: string, ttl = 3600) => ({ id: ++id, domain_id: 1, name, record_type, content, ttl, disabled: 0 }) as unknown as RecordRow;

/** What the rows at a name must read back as: per type, in the order of the first row, the least TTL and each row's wireData. */
function expected(fqdn: string, rows: RecordRow[]) {
  const sets = new Map<number, { name: string; type: number; ttl: number; data: unknown[] }>();
  for (const r of rows) {
    const t = RECORD_TYPE_BY_NAME.get(r.record_type)!;
    if (t.synthetic) continue;
    const set = sets.get(t.code);
    if (set) {
      set.data.push(t.wireData(r.content));
      set.ttl = Math.min(set.ttl, r.ttl);
    } else sets.set(t.code, { name: fqdn, type: t.code, ttl: r.ttl, data: [t.wireData(r.content)] });
  }
  return [...sets.entries()];
}

const VARIED: RecordRow[] = [
  row('www', 'A', '192.0.2.1', 300),
  row('www', 'AAAA', '2001:db8::1'),
  row('www', 'A', '192.0.2.2', 60),
  row('www', 'TXT', '"v=spf1 -all" "second string"'),
  row('www', 'TXT', 'plain text with ünïcödé and 😀'),
  row('www', 'MX', '10 mail.example.com'),
  row('www', 'MX', '0 .'),
  row('www', 'SRV', '1 2 443 sip.example.com'),
  row('www', 'CAA', '0 issue "letsencrypt.org"'),
  row('www', 'SSHFP', `4 2 ${'ab'.repeat(32)}`),
  row('www', 'HTTPS', '1 . alpn="h2,h3" ipv4hint=192.0.2.1'),
  row('www', 'LOC', '52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m'),
];

describe('the compact names of a zone', () => {
  it('read back every type exactly as the rows give it, types in the order of their first row, the least TTL', () => {
    const names = new ZoneNames('example.com');
    const info: PutInfo = { sets: 0, hasNs: false };
    expect(names.putRows('www', VARIED, info)).toBe(true);
    expect(info.sets).toBe(9);
    const node = names.get('www.example.com')!;
    expect([...node.entries()]).toEqual(expected('www.example.com', VARIED));
    expect(node.get(T.A)!.ttl).toBe(60);
    expect(names.recordCount()).toBe(VARIED.length);
    // Rdata kept as bytes comes back as a Uint8Array of its own.
    const caa = node.get(257)!.data[0] as Uint8Array;
    expect(caa).toBeInstanceOf(Uint8Array);
    expect(caa).toEqual(RECORD_TYPE_BY_NAME.get('CAA')!.wireData('0 issue "letsencrypt.org"'));
  });

  it('answer only for names inside the zone, keyed relative to it', () => {
    const names = new ZoneNames('example.com');
    names.putRows('a.b', [row('a.b', 'A', '192.0.2.9')], { sets: 0, hasNs: false });
    expect(names.has('a.b.example.com')).toBe(true);
    expect(names.get('a.b.example.com')!.get(T.A)!.name).toBe('a.b.example.com');
    expect(names.has('a.b.example.net')).toBe(false);
    expect(names.has('a.bexample.com')).toBe(false);
    expect(names.has('example.com')).toBe(false);
    expect([...names.keys()]).toEqual(['a.b.example.com']);
  });

  it('stay equal to a plain map through thousands of changes (chunks, compaction), in insertion order', () => {
    const names = new ZoneNames('example.com', 64);
    const model = new Map<string, RecordRow[]>();
    let seed = 7;
    // mulberry32
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let most = 0;
    const info: PutInfo = { sets: 0, hasNs: false };
    for (let k = 0; k < 20_000; k++) {
      const rel = `h${rand(300)}`;
      const op = rand(10);
      if (op === 0) {
        names.putRows(rel, [], info);
        model.delete(rel);
      } else {
        // Now and then a big TXT, so entries cross the 1 MiB chunks.
        const rows = Array.from({ length: 1 + rand(3) }, (_, i) =>
          op >= 8 ? row(rel, 'TXT', 'x'.repeat(20_000 + i)) : row(rel, i === 2 ? 'MX' : 'A', i === 2 ? `${rand(50)} mx.example.com` : `10.0.${rand(256)}.${i}`),
        );
        names.putRows(rel, rows, info);
        model.set(rel, rows);
      }
      most = Math.max(most, names.arenaBytes);
      if (k % 5000 === 4999) names.trim();
    }
    // More than one chunk of 1 MiB was in use.
    expect(most).toBeGreaterThan(1024 * 1024);
    expect([...names.keys()]).toEqual([...model.keys()].map((r) => `${r}.example.com`));
    // Compared as text: deep equality of 20 kB byte arrays one by one takes vitest seconds.
    const text = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (x instanceof Uint8Array ? Buffer.from(x).toString('base64') : x));
    for (const [rel, rows] of model) expect(text([...names.get(`${rel}.example.com`)!.entries()])).toBe(text(expected(`${rel}.example.com`, rows)));
    expect(names.recordCount()).toBe([...model.values()].reduce((n, r) => n + r.length, 0));
    // The arena holds about what is live: replaced entries do not pile up.
    expect(names.arenaBytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('keep one RRset object per set while the zone is signed, a new one once the name changes', () => {
    const names = new ZoneNames('example.com');
    const info: PutInfo = { sets: 0, hasNs: false };
    names.putRows('www', [row('www', 'A', '192.0.2.1')], info);
    expect(names.get('www.example.com')!.get(T.A)).not.toBe(names.get('www.example.com')!.get(T.A));
    names.keepDecoded(true);
    const first = names.get('www.example.com')!.get(T.A);
    expect(names.get('www.example.com')!.get(T.A)).toBe(first);
    names.putRows('www', [row('www', 'A', '192.0.2.2')], info);
    const second = names.get('www.example.com')!.get(T.A)!;
    expect(second).not.toBe(first);
    expect(second.data).toEqual(['192.0.2.2']);
  });
});

describe('a zone on compact names', () => {
  it('groups rows of one name that come apart, types in the order of their first row, names in the order they came', () => {
    const rows = [row('www', 'A', '192.0.2.1'), row('mail', 'A', '192.0.2.5'), row('www', 'TXT', 'hello'), row('www', 'A', '192.0.2.2', 60), row('@', 'NS', 'ns1.example.net')];
    const zone = new Zone(domain('example.com'), rows, IDENTITY);
    expect([...zone.nodes.keys()]).toEqual(['www.example.com', 'mail.example.com', 'example.com']);
    const www = rows.filter((r) => r.name === 'www');
    expect([...zone.nodes.get('www.example.com')!.entries()]).toEqual(expected('www.example.com', www));
    expect(zone.nodes.get('www.example.com')!.get(T.A)!.ttl).toBe(60);
    expect(zone.recordCount()).toBe(5 + 1);
  });

  it('tells empty non-terminals from names that do not exist, as names come and go', () => {
    const zone = new Zone(domain('example.com'), [row('a.b.c', 'A', '192.0.2.1'), row('x', 'A', '192.0.2.2')], IDENTITY);
    expect(zone.exists('a.b.c.example.com')).toBe(true);
    expect(zone.exists('b.c.example.com')).toBe(true);
    expect(zone.exists('c.example.com')).toBe(true);
    expect(zone.exists('d.example.com')).toBe(false);
    expect(zone.closestEncloser('z.b.c.example.com')).toBe('b.c.example.com');
    zone.replaceName('c', [row('c', 'TXT', 'here')]);
    zone.replaceName('a.b.c', []);
    expect(zone.exists('b.c.example.com')).toBe(false);
    expect(zone.exists('c.example.com')).toBe(true);
    zone.replaceName('c', []);
    expect(zone.exists('c.example.com')).toBe(false);
    expect(zone.closestEncloser('a.b.c.example.com')).toBe('example.com');
    expect(zone.recordCount()).toBe(2);
  });

  it('keeps cuts and DNAMEs from packed names, and the apex SOA across a reload of the apex', () => {
    const zone = new Zone(
      domain('example.com'),
      [row('@', 'NS', 'ns1.example.net'), row('sub', 'NS', 'ns.sub.example.com'), row('ns.sub', 'A', '192.0.2.53'), row('old', 'DNAME', 'example.net')],
      IDENTITY,
    );
    expect(zone.cutAbove('x.sub.example.com')).toBe('sub.example.com');
    expect(zone.dnameAbove('x.old.example.com')).toBe('old.example.com');
    expect(zone.dnames.get('old.example.com')).toBe('example.net');
    const soa = zone.soa;
    zone.replaceName('@', [row('@', 'NS', 'ns2.example.net')]);
    expect(zone.soa).toBe(soa);
    expect(zone.nodes.get('example.com')!.get(T.NS)!.data).toEqual(['ns2.example.net']);
    zone.replaceName('sub', []);
    expect(zone.cutAbove('x.sub.example.com')).toBeUndefined();
    zone.replaceName('old', []);
    expect(zone.dnameAbove('x.old.example.com')).toBeUndefined();
  });

  it('gives the arena’s spare room back when the index takes the zone, and still takes changes', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => row(`h${i}`, 'A', `10.0.${i >> 8}.${i & 255}`));
    const zone = new Zone(domain('example.com'), rows, IDENTITY);
    const index = new ZoneIndex();
    index.put(zone);
    const trimmed = zone.nodes.arenaBytes;
    expect(trimmed).toBeLessThan(2000 * 24);
    zone.replaceName('h7', [row('h7', 'A', '10.9.9.9')]);
    expect(zone.nodes.get('h7.example.com')!.get(T.A)!.data).toEqual(['10.9.9.9']);
    expect(zone.recordCount()).toBe(2001);
  });
});
