/**
 * POST …/zones as PowerDNS checks a new zone: the name first (in its words), then the kind, then
 * `nameservers` beside the RRsets; comments on the SOA kept; CATALOG_ZONE as PowerDNS's
 * default-catalog-zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

const create = (body: Record<string, unknown>) => h.json('POST', ZONES, { kind: 'Native', ...body });
const NS = ['ns1.zonedeck.test.', 'ns2.zonedeck.test.'];

describe('the name, in PowerDNS’s words first', () => {
  it.each([
    [{ name: '' }, "name: DNS Name '' is not canonical"],
    [{ name: 'test..bad.example.', nameservers: ['ns1.elsewhere.example.'] }, "name: Unable to parse Zone Name 'test..bad.example.'"],
    [{ name: 'test:bad.example.', nameservers: ['ns1.elsewhere.example'] }, "name: Name 'test:bad.example.' contains unsupported characters"],
    [{ name: '.' }, 'name: zonedeck does not host the root zone'],
  ])('%j', async (body, error) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(error);
  });
});

describe('nameservers', () => {
  it('beside an apex NS set in rrsets: refused, as PowerDNS refuses it', async () => {
    const rrsets = [{ name: 'mixed.example.', type: 'NS', ttl: 3600, records: [{ content: 'ns2.zonedeck.test.' }] }];
    const res = await create({ name: 'mixed.example.', nameservers: NS, rrsets });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^Nameservers list MUST NOT be mixed with zone-level NS in rrsets/);
    expect((await create({ name: 'mixed.example.', rrsets })).status).toBe(201);
  });

  it('another set: 422 naming the expected one, PowerDNS’s words first for a name without its dot', async () => {
    const res = await create({ name: 'other-ns.example.', nameservers: ['uncanon.example.com'] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^Nameserver is not canonical: 'uncanon\.example\.com'; nameservers: .*"ns1\.zonedeck\.test\.", "ns2\.zonedeck\.test\."/);
  });
});

describe('what comes with the zone', () => {
  it('comments on the SOA and the apex NS set are kept and listed with them', async () => {
    const note = { account: 'ops', content: 'ö, €', modified_at: 11112 };
    const res = await create({
      name: 'notes.example.',
      rrsets: [
        { name: 'notes.example.', type: 'soa', comments: [note] },
        { name: 'notes.example.', type: 'AAAA', ttl: 3600, records: [{ content: '2001:DB8::1' }], comments: [{ ...note, content: 'aaaa' }] },
      ],
    });
    expect(res.status).toBe(201);
    const set = (type: string) => res.body.rrsets.find((s: { type: string }) => s.type === type);
    expect(res.body.rrsets).toHaveLength(3);
    expect(set('SOA').comments).toEqual([note]);
    expect(set('AAAA').comments).toEqual([{ ...note, content: 'aaaa' }]);
    expect(set('NS').comments).toEqual([]);
  });

  it('CATALOG_ZONE is the catalog of a primary zone made without one, as PowerDNS’s default-catalog-zone', async () => {
    const c = await pdnsHarness({ CATALOG_ZONE: 'catalog.example.net' });
    try {
      expect((await c.json('POST', ZONES, { name: 'member.example.', kind: 'Master' })).body.catalog).toBe('catalog.example.net.');
      expect((await c.json('POST', ZONES, { name: 'native.example.', kind: 'Native' })).body.catalog).toBe('');
      expect((await c.json('POST', ZONES, { name: 'own.example.', kind: 'Master', catalog: '' })).body.catalog).toBe('');
      expect((await c.json('GET', `${ZONES}?dnssec=false`)).body.find((z: { name: string }) => z.name === 'member.example.').catalog).toBe('catalog.example.net.');
    } finally {
      await c.t.close();
    }
  });
});
