/**
 * PATCH …/zones/:zone_id through zonedeck's atomic RRset changes: each request one change
 * set with source `pdns`, all of it or nothing; PowerDNS's content forms both ways; the SOA
 * and the apex NS set sent back unchanged are no change, a real change to them is refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

const ZONE = `${ZONES}/example.com.`;
let h: PdnsHarness;

beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());
beforeEach(async () => {
  await h.call('DELETE', ZONE);
  expect((await h.json('POST', ZONES, { name: 'example.com.', kind: 'Native' })).status).toBe(201);
});

const patch = (...rrsets: unknown[]) => h.json('PATCH', ZONE, { rrsets });
const zone = async () => (await h.json('GET', ZONE)).body;
const rrsetsOf = async () =>
  Object.fromEntries(
    (await zone()).rrsets
      .filter((s: { type: string }) => s.type !== 'SOA')
      .map((s: { name: string; type: string; ttl: number; records: Array<{ content: string }> }) => [`${s.name} ${s.type}`, [s.ttl, ...s.records.map((r) => r.content)]]),
  );
const changes = async () =>
  (await (await h.t.request('GET', '/api/v1/domains/example.com/changes')).json()) as Array<{
    id: number;
    source: string;
    actor: { credential: string };
    added: Array<{ name: string; record_type: string; content: string; ttl: string }>;
    removed: Array<{ content: string }>;
  }>;
const rs = (name: string, type: string, changetype: string, contents: string[] = [], ttl?: number) => ({
  name,
  type,
  changetype,
  ...(ttl === undefined ? {} : { ttl }),
  records: contents.map((content) => ({ content, disabled: false })),
});

describe('changes', () => {
  it('one PATCH is one change set, source pdns, with the serials in headers', async () => {
    const before = (await zone()).serial;
    const res = await h.call('PATCH', ZONE, { rrsets: [rs('www.example.com.', 'A', 'REPLACE', ['192.0.2.1', '192.0.2.2'], 300), rs('example.com.', 'MX', 'REPLACE', ['10 mail.example.com.'], 300)] });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-pdns-old-serial')).toBe(String(before));
    const after = (await zone()).serial;
    expect(res.headers.get('x-pdns-new-serial')).toBe(String(after));
    expect(after).toBeGreaterThan(before);
    const [latest] = await changes();
    expect(latest!.source).toBe('pdns');
    expect(latest!.actor.credential).toMatch(/^token:[0-9]+$/);
    expect(latest!.added.map((r) => `${r.name} ${r.record_type} ${r.content} ${r.ttl}`).sort()).toEqual(['@ MX 10 mail.example.com 300', 'www A 192.0.2.1 300', 'www A 192.0.2.2 300']);
  });

  it('EXTEND adds (duplicates skipped), PRUNE removes, DELETE ignores records it is sent (octoDNS sends them)', async () => {
    await patch(rs('t.example.com.', 'TXT', 'REPLACE', ['"one"'], 60));
    expect((await patch(rs('t.example.com.', 'TXT', 'EXTEND', ['"two"', '"one"']))).status).toBe(204);
    expect((await rrsetsOf())['t.example.com. TXT']).toEqual([60, '"one"', '"two"']);
    expect((await patch(rs('t.example.com.', 'TXT', 'PRUNE', ['"one"']))).status).toBe(204);
    expect((await rrsetsOf())['t.example.com. TXT']).toEqual([60, '"two"']);
    expect((await patch(rs('t.example.com.', 'TXT', 'DELETE', ['"two"'], 60))).status).toBe(204);
    expect((await rrsetsOf())['t.example.com. TXT']).toBeUndefined();
    // REPLACE with no records deletes; changetypes in any case.
    await patch(rs('u.example.com.', 'A', 'replace', ['192.0.2.9'], 60));
    expect((await patch(rs('u.example.com.', 'A', 'REPLACE', []))).status).toBe(204);
    expect((await rrsetsOf())['u.example.com. A']).toBeUndefined();
  });

  it('all or nothing: one bad entry refuses the whole PATCH with 422 naming it, and changes nothing', async () => {
    const before = await zone();
    const count = (await changes()).length;
    const res = await patch(
      rs('ok.example.com.', 'A', 'REPLACE', ['192.0.2.1'], 60),
      rs('bad.example.com.', 'AAAA', 'REPLACE', ['not-an-address'], 60),
      rs('ok2.example.com.', 'TXT', 'REPLACE', ['"fine"'], 60),
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^RRset bad\.example\.com\. IN AAAA: rrsets\.1\.records\.0: AAAA: /);
    expect(await zone()).toEqual(before);
    expect((await changes()).length).toBe(count);
  });

  it('a rule of the zone as a whole (CNAME exclusivity) is 422 at the entry that breaks it; A to CNAME in one PATCH is fine', async () => {
    await patch(rs('www.example.com.', 'A', 'REPLACE', ['192.0.2.1'], 60));
    const res = await patch(rs('other.example.com.', 'A', 'REPLACE', ['192.0.2.2'], 60), rs('www.example.com.', 'CNAME', 'REPLACE', ['target.example.net.'], 60));
    expect(res.status).toBe(422);
    // PowerDNS's words first (server/pdns/powerdns-words.ts), then zonedeck's field and reason.
    expect(res.body.error).toMatch(/^RRset www\.example\.com\. IN CNAME: Conflicts with pre-existing RRset: rrsets\.1: .*CNAME/);
    expect((await rrsetsOf())['other.example.com. A']).toBeUndefined();
    expect((await patch(rs('www.example.com.', 'A', 'DELETE'), rs('www.example.com.', 'CNAME', 'REPLACE', ['target.example.net.'], 60))).status).toBe(204);
    expect((await rrsetsOf())['www.example.com. CNAME']).toEqual([60, 'target.example.net.']);
  });

  it('a REPLACE without ttl keeps the RRset’s TTL, else takes the zone’s minimum_ttl', async () => {
    await patch(rs('a.example.com.', 'A', 'REPLACE', ['192.0.2.1'], 120));
    await patch(rs('a.example.com.', 'A', 'REPLACE', ['192.0.2.2']), rs('b.example.com.', 'A', 'REPLACE', ['192.0.2.3']));
    expect((await rrsetsOf())['a.example.com. A']).toEqual([120, '192.0.2.2']);
    expect((await rrsetsOf())['b.example.com. A']).toEqual([3600, '192.0.2.3']);
  });

  it('takes what lego sends: extra fields on RRsets and records', async () => {
    const lego = {
      rrsets: [{ name: '_acme-challenge.example.com.', type: 'TXT', kind: 'Master', changetype: 'REPLACE', ttl: 120, records: [{ content: '"abc"', disabled: false, name: '', type: '', ttl: 0 }] }],
    };
    expect((await h.json('PATCH', ZONE, lego)).status).toBe(204);
    expect((await h.json('PATCH', ZONE, { rrsets: [] })).status).toBe(204);
  });
});

describe('content and names, both ways', () => {
  it.each([
    ['MX', '10 mail.example.com.', '10 mail.example.com.'],
    ['MX', '0 .', '0 .'],
    ['SRV', '10 5 443 sip.example.com.', '10 5 443 sip.example.com.'],
    ['CAA', '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
    ['CNAME', 'Target.Example.NET.', 'target.example.net.'],
    ['AAAA', '2001:DB8:0::1', '2001:db8::1'],
    ['TXT', '"v=spf1 " "-all"', '"v=spf1 " "-all"'],
    ['TXT', '"txtvers=1" "path=/"', '"txtvers=1" "path=/"'],
    ['TXT', '"say \\"hi\\"; caf\\195\\169"', '"say \\"hi\\"; caf\\195\\169"'],
    ['TXT', `"${'x'.repeat(300)}"`, `"${'x'.repeat(255)}" "${'x'.repeat(45)}"`],
    ['NS', 'ns1.example.net.', 'ns1.example.net.'],
    // Read back as PowerDNS prints them, so compare-after-write tools see no change.
    ['TLSA', '3 1 1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', '3 1 1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['SSHFP', '4 2 E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855', '4 2 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['LOC', '52 22 23.000 N 4 53 32.000 E -2.00m 1.00m 10000.00m 10.00m', '52 22 23.000 N 4 53 32.000 E -2.00m 1.00m 10000.00m 10.00m'],
    ['LOC', '52 22 23 N 4 53 32 E -2m 1m 10000m 10m', '52 22 23.000 N 4 53 32.000 E -2.00m 1.00m 10000.00m 10.00m'],
    // Names in content are absolute, with the trailing dot or without.
    ['PTR', 'host.example.com', 'host.example.com.'],
  ])('%s %s', async (type, sent, shown) => {
    const name = type === 'NS' ? 'sub.example.com.' : 'x.example.com.';
    expect((await patch(rs(name, type, 'REPLACE', [sent], 60))).status).toBe(204);
    expect((await rrsetsOf())[`${name} ${type}`]).toEqual([60, shown]);
  });

  it('names are absolute with or without the dot; a wildcard is a name like any other', async () => {
    await patch(rs('nodot.example.com', 'A', 'REPLACE', ['192.0.2.1'], 60), rs('*.dev.example.com.', 'A', 'REPLACE', ['192.0.2.2'], 60));
    const sets = await rrsetsOf();
    expect(sets['nodot.example.com. A']).toEqual([60, '192.0.2.1']);
    expect(sets['*.dev.example.com. A']).toEqual([60, '192.0.2.2']);
  });

  it.each([
    [rs('x.example.com.', 'TXT', 'REPLACE', ['unquoted words'], 60), /rrsets\.0\.records\.0: TXT: content must be one or more quoted strings/],
    [rs('x.example.com.', 'A', 'UPSERT', ['192.0.2.1'], 60), /rrsets\.0\.changetype: .*REPLACE, DELETE, EXTEND, PRUNE/],
    [rs('x.example.com.', 'FOO', 'REPLACE', ['1'], 60), /^RRset x\.example\.com\. IN FOO: unknown type given: rrsets\.0\.type: zonedeck serves A, AAAA/],
    [rs('x.example.net.', 'A', 'REPLACE', ['192.0.2.1'], 60), /rrsets\.0\.name: .*not inside the zone/],
    [rs('x.example.com.', 'A', 'REPLACE', ['192.0.2.1', '192.0.2.1'], 60), /duplicate record with content "192\.0\.2\.1": rrsets\.0\.records\.1: the same record twice/],
    [rs('x.example.com.', 'A', 'REPLACE', ['192.0.2.1'], -5), /rrsets\.0\.ttl: /],
    [rs('x.example.com.', 'A', 'EXTEND', [], 60), /No record provided for PRUNE or EXTEND operation: rrsets\.0\.records: no record given for EXTEND/],
    [{ name: 'x.example.com.', type: 'A', changetype: 'REPLACE', ttl: 60 }, /rrsets\.0\.records: no change/],
    [
      { ...rs('example.com.', 'NS', 'REPLACE', [], 3600), records: [{ content: 'ns1.zonedeck.test.', disabled: true }] },
      /rrsets\.0\.records\.0\.disabled: the NS set at the apex is managed by zonedeck and cannot be disabled/,
    ],
    [rs('x.example.com.', 'SOA', 'REPLACE', ['a. b. 1 2 3 4 5'], 60), /rrsets\.0\.type: an SOA record stands only at the zone apex/],
  ])('422: %j', async (entry, message) => {
    const res = await patch(entry);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
  });

  it('the same RRset replaced or deleted twice is refused, as PowerDNS does; EXTEND and PRUNE may come several times', async () => {
    const res = await patch(rs('x.example.com.', 'A', 'REPLACE', ['192.0.2.1'], 60), rs('X.example.com.', 'A', 'REPLACE', ['192.0.2.2'], 60));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/Duplicate RRset X\.example\.com\. IN A with changetype: REPLACE: rrsets\.1: /);
    const twice = await patch(rs('y.example.com.', 'A', 'EXTEND', ['192.0.2.1'], 60), rs('y.example.com.', 'A', 'EXTEND', ['192.0.2.2'], 60), rs('y.example.com.', 'A', 'PRUNE', ['192.0.2.1']));
    expect(twice.status).toBe(204);
    expect((await rrsetsOf())['y.example.com. A']).toEqual([60, '192.0.2.2']);
  });
});

describe('the SOA and the apex NS set are zonedeck’s', () => {
  it('sent back as read (external-dns, octoDNS do) they are no change; with other records the PATCH still applies', async () => {
    const { rrsets } = await zone();
    const count = (await changes()).length;
    const back = rrsets.map((s: { name: string; type: string; ttl: number; records: unknown[] }) => ({ ...s, changetype: 'REPLACE' }));
    expect((await h.json('PATCH', ZONE, { rrsets: back })).status).toBe(204);
    expect((await changes()).length).toBe(count);
    // An SOA read before another change carries an older serial: still no change.
    await patch(rs('a.example.com.', 'A', 'REPLACE', ['192.0.2.1'], 60));
    expect((await h.json('PATCH', ZONE, { rrsets: [...back, rs('b.example.com.', 'A', 'REPLACE', ['192.0.2.2'], 60)] })).status).toBe(204);
    expect((await rrsetsOf())['b.example.com. A']).toEqual([60, '192.0.2.2']);
    expect((await patch(rs('example.com.', 'NS', 'EXTEND', ['ns1.zonedeck.test.']))).status).toBe(204);
  });

  it('a DELETE of the apex SOA (dnscontrol ≥ 4.16 without SOA()) is accepted and changes nothing; the rest of the PATCH applies', async () => {
    const before = await zone();
    const count = (await changes()).length;
    expect((await patch(rs('example.com.', 'SOA', 'DELETE'))).status).toBe(204);
    expect(await zone()).toEqual(before);
    expect((await changes()).length).toBe(count);
    expect((await patch(rs('example.com.', 'SOA', 'DELETE'), rs('d.example.com.', 'A', 'REPLACE', ['192.0.2.4'], 60))).status).toBe(204);
    expect((await rrsetsOf())['d.example.com. A']).toEqual([60, '192.0.2.4']);
    expect((await zone()).rrsets.filter((s: { type: string }) => s.type === 'SOA')).toHaveLength(1);
  });

  it.each([
    ['a new NS set', rs('example.com.', 'NS', 'REPLACE', ['ns1.example.net.', 'ns2.example.net.'], 3600), /NS set at the apex is managed by zonedeck/],
    ['deleting the NS set', rs('example.com.', 'NS', 'DELETE'), /NS set at the apex is managed by zonedeck/],
    ['another NS TTL', rs('example.com.', 'NS', 'REPLACE', ['ns1.zonedeck.test.', 'ns2.zonedeck.test.'], 60), /NS set at the apex/],
    ['other SOA timers', rs('example.com.', 'SOA', 'REPLACE', ['ns1.zonedeck.test. hostmaster.zonedeck.test. 1 7200 3600 1209600 3600'], 3600), /SOA record is managed by zonedeck.*refresh_interval/],
    ['another SOA MNAME', rs('example.com.', 'SOA', 'REPLACE', ['ns.example.net. hostmaster.zonedeck.test. 1 10800 3600 1209600 3600'], 3600), /SOA record is managed/],
  ])('%s: 422, nothing applied', async (_what, entry, message) => {
    const before = await zone();
    const res = await patch(rs('c.example.com.', 'A', 'REPLACE', ['192.0.2.3'], 60), entry);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
    expect(res.body.error).toMatch(/rrsets\.1:/);
    expect(await zone()).toEqual(before);
  });
});
