/**
 * The DNS index's start-up load (dns/sync/startup-load.ts) reads a zone in slices by name, type and id
 * (`records.served`, the records_lookup index's order) and builds each name as its rows come in.
 * On SQLite and PostgreSQL alike, what it builds is the zone the records make, RRset for RRset and
 * in the same order as a change builds it: a name whose rows straddle two slices, RRsets whose
 * types were written out of alphabetical order, disabled records, and names a locale's collation
 * orders differently from bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../dns/index/resolve';
import { RCODE, T } from '../../dns/index/rrset';
import { Zone } from '../../dns/index/zone';
import { ZoneIndex } from '../../dns/index/zone-index';
import { syncZones } from '../../dns/sync/zone-sync';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { IDENTITY } from '../../testing/zone-fixture';

let t: TestApp;
const Z = '/api/v1/domains/load.test';

beforeAll(async () => {
  t = await createTestApp();
  await t.user('alice');
  expect((await t.request('POST', '/api/v1/domains', { body: { name: 'load.test' } })).status).toBe(201);
  const lines: string[] = [];
  // 1,995 names of one row after the apex's, then `b` with 20 rows across the 2,000th row (a slice's end: slices of 1,000),
  // written TXT first, then A, then AAAA: ids in another order than the types'.
  for (let i = 0; i < 1995; i++) lines.push(`a${String(i).padStart(4, '0')} 300 IN A 10.0.${i >> 8}.${i & 255}`);
  for (let i = 0; i < 5; i++) lines.push(`b 300 IN TXT "text ${i}"`);
  for (let i = 0; i < 10; i++) lines.push(`b 300 IN A 192.0.2.${i + 1}`);
  for (let i = 0; i < 5; i++) lines.push(`b 300 IN AAAA 2001:db8::${i + 1}`);
  // Names a locale's collation (PostgreSQL's) orders otherwise than bytes do.
  lines.push('x-y 300 IN A 192.0.2.50', 'xy 300 IN A 192.0.2.51', 'x.y 300 IN A 192.0.2.52', 'X_Y 300 IN TXT "u"', 'xy 300 IN MX 10 mail.load.test.');
  const res = await t.request('POST', `${Z}/zone`, { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'text/dns' } });
  expect(res.status).toBeLessThan(300);
  // Disabled: one of b's addresses, and the only record of another name.
  const listed = (await (await t.request('GET', `${Z}/records?name=b&record_type=A&per_page=50`)).json()) as { id: number; content: string }[];
  const off = listed.find((r) => r.content === '192.0.2.5')!;
  expect((await t.request('PUT', `${Z}/records/${off.id}`, { body: { disabled: true } })).status).toBe(200);
  expect((await t.request('POST', `${Z}/records`, { body: { name: 'quiet', record_type: 'A', content: '192.0.2.99', disabled: true } })).status).toBe(200);
});
afterAll(() => t?.close());

/** Every name of the zone with its RRsets in their order: type, TTL and data. */
const dump = (zone: Zone) =>
  [...zone.nodes.entries()].map(([name, node]) => [name, [...node.entries()].map(([type, set]) => [type, set.ttl, set.data.map(String)])] as const).sort((x, y) => (x[0] < y[0] ? -1 : 1));

describe('the start-up load', () => {
  it('builds the zone the records make, in slices by name', async () => {
    const store = t.services.store;
    const index = new ZoneIndex();
    const sync = await syncZones({ store, events: t.services.events, index, identity: IDENTITY, reconcileMs: 3_600_000 });
    await sync.loaded;
    sync.stop();
    const loaded = index.get('load.test')!;
    const domain = (await store.domains.byName('load.test'))!;
    // The zone as the records make it when handed over all at once, in id order.
    const reference = new Zone(
      domain,
      (await store.records.byDomain(domain.id)).filter((r) => !r.disabled),
      IDENTITY,
    );
    expect(dump(loaded)).toEqual(dump(reference));
    // The apex, the a names, b, x-y, xy, x.y and x_y (quiet holds only a disabled record).
    expect(loaded.nodes.size).toBe(1 + 1995 + 5);

    const answer = (qname: string, qtype: number) => resolve(index, { qname, qtype });
    // b straddles two slices: all of its served rows, and its RRsets in the order they were written.
    expect(answer('b.load.test', T.A).answer[0]!.data).toHaveLength(9);
    expect(answer('b.load.test', T.A).answer[0]!.data).not.toContain('192.0.2.5');
    expect(answer('b.load.test', T.AAAA).answer[0]!.data).toHaveLength(5);
    expect(answer('b.load.test', T.TXT).answer[0]!.data).toHaveLength(5);
    expect([...loaded.nodes.get('b.load.test')!.keys()]).toEqual([T.TXT, T.A, T.AAAA]);
    expect(answer('quiet.load.test', T.A).rcode).toBe(RCODE.NXDOMAIN);
    expect(answer('xy.load.test', T.MX).answer[0]!.data).toHaveLength(1);
    expect(answer('xy.load.test', T.A).answer[0]!.data).toEqual(['192.0.2.51']);
    expect(answer('x.y.load.test', T.A).answer[0]!.data).toEqual(['192.0.2.52']);
    expect(answer('a1994.load.test', T.A).answer[0]!.data).toEqual(['10.0.7.202']);
  });
});
