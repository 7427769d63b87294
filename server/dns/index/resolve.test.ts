/** The resolver as a pure function: a table of questions and the responses a user of dig would expect. */
import { describe, expect, it } from 'vitest';
import { resolve, type Resolution } from './resolve';
import { RCODE, T, type RRset } from './rrset';
import { exampleIndex } from '../../testing/zone-fixture';

const index = exampleIndex();

/** An RRset as "owner TYPE rdata…" strings, so the table reads like dig output. */
function show(sets: RRset[]): string[] {
  const name = Object.fromEntries(Object.entries(T).map(([k, v]) => [v, k]));
  return sets.map((s) =>
    `${s.name} ${name[s.type]} ${s.data.map((d) => (d instanceof Array ? d.map((c) => Buffer.from(c).toString()).join('') : typeof d === 'object' ? JSON.stringify(d) : String(d))).join(' | ')}`.slice(
      0,
      120,
    ),
  );
}

interface Case {
  q: string;
  type: number;
  rcode: number;
  aa: boolean;
  answer?: string[];
  authority?: string[];
  additional?: string[];
  tcp?: boolean;
}

const SOA = /^example\.com SOA \{"mname":"ns1\.zonedeck\.test","rname":"hostmaster\.zonedeck\.test","serial":2024010100/;

const cases: Case[] = [
  { q: 'www.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['www.example.com A 192.0.2.1 | 192.0.2.2'], authority: [], additional: [] },
  { q: 'www.example.com', type: T.AAAA, rcode: RCODE.NOERROR, aa: true, answer: ['www.example.com AAAA 2001:db8::1'] },
  { q: 'example.com', type: T.MX, rcode: RCODE.NOERROR, aa: true, answer: ['example.com MX {"preference":10,"exchange":"mail.example.com"}'], additional: ['mail.example.com A 192.0.2.25'] },
  { q: '_sip._tcp.example.com', type: T.SRV, rcode: RCODE.NOERROR, aa: true, additional: ['mail.example.com A 192.0.2.25'] },
  { q: 'example.com', type: T.NS, rcode: RCODE.NOERROR, aa: true, answer: ['example.com NS ns1.zonedeck.test | ns2.zonedeck.test'] },
  { q: 'caa.example.com', type: T.CAA, rcode: RCODE.NOERROR, aa: true },
  // NODATA and NXDOMAIN carry the SOA (RFC 2308 §2.1, §2.2).
  { q: 'www.example.com', type: T.MX, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  { q: 'nope.example.com', type: T.A, rcode: RCODE.NXDOMAIN, aa: true, answer: [], authority: ['SOA'] },
  // An empty non-terminal exists: NODATA, not NXDOMAIN (RFC 4592 §2.2.2).
  { q: 'b.c.example.com', type: T.TXT, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  { q: 'c.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  // CNAME chasing inside the zone (RFC 1034 §3.6.2) and the final RCODE (RFC 6604).
  { q: 'alias.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['alias.example.com CNAME www.example.com', 'www.example.com A 192.0.2.1 | 192.0.2.2'] },
  {
    q: 'chain.example.com',
    type: T.AAAA,
    rcode: RCODE.NOERROR,
    aa: true,
    answer: ['chain.example.com CNAME alias.example.com', 'alias.example.com CNAME www.example.com', 'www.example.com AAAA 2001:db8::1'],
  },
  { q: 'alias.example.com', type: T.CNAME, rcode: RCODE.NOERROR, aa: true, answer: ['alias.example.com CNAME www.example.com'] },
  { q: 'dangling.example.com', type: T.A, rcode: RCODE.NXDOMAIN, aa: true, answer: ['dangling.example.com CNAME missing.example.com'], authority: ['SOA'] },
  { q: 'outside.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['outside.example.com CNAME www.example.net'], authority: [] },
  { q: 'loop1.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['loop1.example.com CNAME loop2.example.com', 'loop2.example.com CNAME loop1.example.com'] },
  // Wildcards (RFC 4592 §3.3): synthesized under the query name, not for existing names.
  { q: 'anything.wild.example.com', type: T.TXT, rcode: RCODE.NOERROR, aa: true, answer: ['anything.wild.example.com TXT wildcard text'] },
  { q: 'x.y.wild.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['x.y.wild.example.com A 192.0.2.99'] },
  { q: 'anything.wild.example.com', type: T.MX, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  { q: 'exists.wild.example.com', type: T.TXT, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  { q: 'foo.cn.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['foo.cn.example.com CNAME www.example.com', 'www.example.com A 192.0.2.1 | 192.0.2.2'] },
  // Referrals: not authoritative, NS in authority, glue in additional (RFC 1034 §4.3.2 3b).
  {
    q: 'sub.example.com',
    type: T.A,
    rcode: RCODE.NOERROR,
    aa: false,
    answer: [],
    authority: ['sub.example.com NS ns1.sub.example.com | ns.example.net'],
    additional: ['ns1.sub.example.com A 192.0.2.53'],
  },
  { q: 'deep.below.sub.example.com', type: T.MX, rcode: RCODE.NOERROR, aa: false, authority: ['sub.example.com NS ns1.sub.example.com | ns.example.net'] },
  { q: 'ns1.sub.example.com', type: T.A, rcode: RCODE.NOERROR, aa: false, answer: [], authority: ['sub.example.com NS ns1.sub.example.com | ns.example.net'] },
  // DS belongs to the parent side of a cut (RFC 4035 §3.1.4.1): NODATA, not a referral.
  { q: 'sub.example.com', type: T.DS, rcode: RCODE.NOERROR, aa: true, answer: [], authority: ['SOA'] },
  // A hosted child zone answers its own names.
  { q: 'host.child.example.com', type: T.A, rcode: RCODE.NOERROR, aa: true, answer: ['host.child.example.com A 198.51.100.1'] },
  // Minimal ANY over UDP (RFC 8482 §4.2), every RRset over TCP.
  { q: 'www.example.com', type: T.ANY, rcode: RCODE.NOERROR, aa: true, answer: ['www.example.com A 192.0.2.1 | 192.0.2.2'] },
  { q: 'www.example.com', type: T.ANY, tcp: true, rcode: RCODE.NOERROR, aa: true, answer: ['www.example.com A 192.0.2.1 | 192.0.2.2', 'www.example.com AAAA 2001:db8::1'] },
  // Outside every zone: REFUSED without AA.
  { q: 'example.org', type: T.A, rcode: RCODE.REFUSED, aa: false, answer: [], authority: [] },
  { q: 'com', type: T.NS, rcode: RCODE.REFUSED, aa: false },
  { q: '', type: T.NS, rcode: RCODE.REFUSED, aa: false },
];

function check(res: Resolution, c: Case) {
  expect(res.rcode).toBe(c.rcode);
  expect(res.aa).toBe(c.aa);
  if (c.answer) expect(show(res.answer)).toEqual(c.answer);
  if (c.authority) {
    const got = show(res.authority);
    expect(got.length).toBe(c.authority.length);
    c.authority.forEach((want, i) => (want === 'SOA' ? expect(got[i]).toMatch(SOA) : expect(got[i]).toBe(want)));
  }
  if (c.additional) expect(show(res.additional)).toEqual(c.additional);
}

describe('resolve', () => {
  for (const c of cases) {
    it(`${c.q || '.'} ${Object.entries(T).find(([, v]) => v === c.type)![0]}${c.tcp ? ' (tcp)' : ''} → rcode ${c.rcode}`, () => {
      check(resolve(index, { qname: c.q, qtype: c.type, tcp: c.tcp }), c);
    });
  }

  it('gives the SOA with minimum_ttl as its TTL, the negative-caching TTL of RFC 2308 §5', () => {
    const res = resolve(index, { qname: 'nope.example.com', qtype: T.A });
    expect(res.authority[0]!.ttl).toBe(3600);
  });

  it('answers the SOA at the apex from the domain fields', () => {
    const res = resolve(index, { qname: 'example.com', qtype: T.SOA });
    expect(show(res.answer)[0]).toMatch(SOA);
  });

  it('sees a change to the zone at once', () => {
    const local = exampleIndex();
    const zone = local.get('example.com')!;
    zone.replaceName('new', [{ id: 999, name: 'new', record_type: 'A', content: '203.0.113.7', ttl: 60 }]);
    expect(show(resolve(local, { qname: 'new.example.com', qtype: T.A }).answer)).toEqual(['new.example.com A 203.0.113.7']);
    zone.replaceName('a.b.c', []);
    // The empty non-terminals above a removed name disappear with it.
    expect(resolve(local, { qname: 'b.c.example.com', qtype: T.A }).rcode).toBe(RCODE.NXDOMAIN);
  });
});

describe('what response rate limiting counts an answer as (rrl.ts)', () => {
  // Names an asker makes up (below a wildcard, a DNAME or a cut, or that do not exist) share one
  // name, so that a flood of random names is limited like a flood of one name.
  const rows: Array<[string, number, Resolution['kind'], string | undefined]> = [
    ['www.example.com', T.A, 'answer', undefined],
    ['www.example.com', T.MX, 'nodata', undefined],
    ['alias.example.com', T.A, 'answer', undefined],
    ['r4nd0m.wild.example.com', T.TXT, 'answer', '*.wild.example.com'],
    ['x.y.wild.example.com', T.A, 'answer', '*.wild.example.com'],
    ['r4nd0m.wild.example.com', T.MX, 'nodata', '*.wild.example.com'],
    ['r4nd0m.cn.example.com', T.A, 'answer', '*.cn.example.com'],
    ['r4nd0m.example.com', T.A, 'nxdomain', 'example.com'],
    ['dangling.example.com', T.A, 'nxdomain', 'example.com'],
    ['r4nd0m.below.sub.example.com', T.A, 'referral', 'sub.example.com'],
    ['sub.example.com', T.DS, 'nodata', undefined],
    ['host.child.example.com', T.A, 'answer', undefined],
    ['r4nd0m.child.example.com', T.A, 'nxdomain', 'child.example.com'],
    ['example.org', T.A, 'refused', undefined],
  ];
  it.each(rows)('%s type %i → %s, counted under %s', (qname, qtype, kind, name) => {
    const res = resolve(index, { qname, qtype });
    expect(res.kind).toBe(kind);
    expect(res.rrlName).toBe(name);
  });

  it('a name below a DNAME counts under the DNAME', () => {
    const local = exampleIndex();
    local.get('example.com')!.replaceName('old', [{ id: 998, name: 'old', record_type: 'DNAME', content: 'example.net.', ttl: 60 }]);
    const res = resolve(local, { qname: 'r4nd0m.old.example.com', qtype: T.TXT });
    expect(res.answer.map((s) => s.type)).toEqual([T.DNAME, T.CNAME]);
    expect([res.kind, res.rrlName]).toEqual(['answer', 'old.example.com']);
  });
});
