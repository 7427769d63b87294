/**
 * What PowerDNS sync tools set on a zone and compare after reading it back:
 * terraform-provider-powerdns (`nameservers` is ForceNew, `account` and `soa_edit_api` planned),
 * PowerDNS-Admin (zones filed under accounts). Kept, answered, and a plan after apply sees no change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

/** What terraform-provider-powerdns sends for `resource "powerdns_zone"` (its resourcePDNSZoneCreate). */
const terraformZone = (name: string, nameservers: string[]) => ({ name, kind: 'Native', nameservers, account: 'team-web', soa_edit_api: 'DEFAULT' });

describe('zone attributes PowerDNS clients keep', () => {
  it('account, soa_edit_api and catalog are kept on create, answered by GET and the list, and changed by PUT', async () => {
    const res = await h.json('POST', ZONES, { ...terraformZone('attrs.example.', ['ns2.zonedeck.test', 'ns1.zonedeck.test.']), catalog: 'catalog.example' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ account: 'team-web', soa_edit_api: 'DEFAULT', catalog: 'catalog.example.' });
    const read = await h.json('GET', `${ZONES}/attrs.example.`);
    expect(read.body).toMatchObject({ account: 'team-web', soa_edit_api: 'DEFAULT', catalog: 'catalog.example.' });
    const list = await h.json('GET', ZONES);
    expect(list.body.find((z: { name: string }) => z.name === 'attrs.example.')).toMatchObject({ account: 'team-web', catalog: 'catalog.example.' });
    // PowerDNS-Admin moves a zone to another account with PUT.
    expect((await h.json('PUT', `${ZONES}/attrs.example.`, { account: 'team-mail', soa_edit_api: 'INCREASE' })).status).toBe(204);
    expect((await h.json('GET', `${ZONES}/attrs.example.`)).body).toMatchObject({ account: 'team-mail', soa_edit_api: 'INCREASE', catalog: 'catalog.example.' });
    // A zone without any keeps PowerDNS's defaults.
    expect((await h.json('POST', ZONES, { name: 'plain.example.', kind: 'Native' })).body).toMatchObject({ account: '', soa_edit_api: 'DEFAULT', catalog: '' });
  });

  it('a bad soa_edit_api or catalog is 422 naming the field, and nothing is created', async () => {
    const bad = await h.json('POST', ZONES, { name: 'bad-attrs.example.', kind: 'Native', soa_edit_api: 'SOMETIMES' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^soa_edit_api: 'SOMETIMES' is not one of/);
    expect((await h.json('GET', `${ZONES}/bad-attrs.example.`)).status).toBe(404);
    const cat = await h.json('PUT', `${ZONES}/attrs.example.`, { catalog: 'not a name' });
    expect(cat.status).toBe(422);
    expect(cat.body.error).toMatch(/^catalog: /);
  });

  it('nameservers naming the service set is accepted in any order and form; another set is 422 with the expected set', async () => {
    const other = await h.json('POST', ZONES, terraformZone('ns-other.example.', ['ns1.example.net.', 'ns2.example.net.']));
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('nameservers: zonedeck serves every zone from its own name servers (NAMESERVERS): send exactly "ns1.zonedeck.test.", "ns2.zonedeck.test.", or leave nameservers out');
    expect((await h.json('GET', `${ZONES}/ns-other.example.`)).status).toBe(404);
    expect((await h.json('POST', ZONES, terraformZone('ns-ok.example.', ['NS2.zonedeck.test.', 'ns1.zonedeck.test']))).status).toBe(201);
  });

  it('a Terraform plan after apply sees what it applied: the same account, soa_edit_api and NS set', async () => {
    const config = terraformZone('plan.example.', ['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);
    expect((await h.json('POST', ZONES, config)).status).toBe(201);
    // The provider's read (resourcePDNSZoneRead): the zone, then its NS RRset, compared with the config.
    const zone = (await h.json('GET', `${ZONES}/plan.example.`)).body;
    expect({ kind: zone.kind, account: zone.account, soa_edit_api: zone.soa_edit_api }).toEqual({ kind: 'Native', account: config.account, soa_edit_api: config.soa_edit_api });
    const ns = zone.rrsets.find((s: { name: string; type: string }) => s.name === 'plan.example.' && s.type === 'NS');
    expect(ns.records.map((r: { content: string }) => r.content).sort()).toEqual([...config.nameservers].sort());
  });

  it('deleting the zone removes its attributes: a new zone of the same name starts with the defaults', async () => {
    expect((await h.json('POST', ZONES, { name: 'again.example.', kind: 'Native', account: 'old' })).status).toBe(201);
    expect((await h.call('DELETE', `${ZONES}/again.example.`)).status).toBe(204);
    expect((await h.json('POST', ZONES, { name: 'again.example.', kind: 'Native' })).body.account).toBe('');
  });
});

describe('PUT of a zone with rrsets', () => {
  it('replaces every record of the zone (the apex NS set stays the service’s) and the SOA timers, as one change set', async () => {
    expect((await h.json('POST', ZONES, { name: 'put.example.', kind: 'Native' })).status).toBe(201);
    const patch = (rrsets: unknown[]) => h.json('PATCH', `${ZONES}/put.example.`, { rrsets });
    expect((await patch([{ name: 'old.put.example.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '192.0.2.1', disabled: false }] }])).status).toBe(204);
    const history = async () => (await (await h.t.request('GET', '/api/v1/domains/put.example/changes')).json()) as Array<{ source: string; added: unknown[]; removed: unknown[]; settings: object }>;
    const before = (await history()).length;
    const res = await h.json('PUT', `${ZONES}/put.example.`, {
      rrsets: [
        { name: 'put.example.', type: 'SOA', ttl: 3600, records: [{ content: 'a. b. 1 7200 900 1209600 300', disabled: false }] },
        { name: 'put.example.', type: 'NS', ttl: 3600, records: [{ content: 'ns.elsewhere.example.', disabled: false }] },
        { name: 'www.put.example.', type: 'A', ttl: 300, records: [{ content: '192.0.2.10', disabled: false }] },
        { name: 'put.example.', type: 'TXT', ttl: 300, records: [{ content: '"a" "b"', disabled: false }] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const zone = (await h.json('GET', `${ZONES}/put.example.`)).body;
    expect(zone.rrsets.map((s: { name: string; type: string; records: Array<{ content: string }> }) => `${s.name} ${s.type} ${s.records.map((r) => r.content).join(',')}`)).toEqual([
      expect.stringMatching(/^put\.example\. SOA ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. [0-9]+ 7200 900 1209600 300$/),
      'put.example. NS ns1.zonedeck.test.,ns2.zonedeck.test.',
      'put.example. TXT "a" "b"',
      'www.put.example. A 192.0.2.10',
    ]);
    const after = await history();
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ source: 'pdns', settings: { refresh_interval: [10800, 7200], retry_interval: [3600, 900], minimum_ttl: [3600, 300] } });
    expect(after[0]!.removed).toEqual([expect.objectContaining({ name: 'old', content: '192.0.2.1' })]);
  });
});

describe('zone metadata', () => {
  it('SOA-EDIT-API is the zone attribute of that name; other kinds are 422 naming the kind', async () => {
    expect((await h.json('POST', ZONES, { name: 'meta.example.', kind: 'Native' })).status).toBe(201);
    const META = `${ZONES}/meta.example./metadata`;
    expect((await h.json('GET', META)).body).toEqual([
      { type: 'Metadata', kind: 'SOA-EDIT-API', metadata: ['DEFAULT'] },
      { type: 'Metadata', kind: 'RFC1123-CONFORMANCE', metadata: ['0'] },
    ]);
    expect((await h.json('PUT', `${META}/SOA-EDIT-API`, { metadata: ['INCREASE'] })).body).toEqual({ type: 'Metadata', kind: 'SOA-EDIT-API', metadata: ['INCREASE'] });
    expect((await h.json('GET', `${ZONES}/meta.example.`)).body.soa_edit_api).toBe('INCREASE');
    expect((await h.call('DELETE', `${META}/SOA-EDIT-API`)).status).toBe(204);
    expect((await h.json('GET', `${META}/SOA-EDIT-API`)).body.metadata).toEqual(['DEFAULT']);
    const source = await h.json('PUT', `${META}/AXFR-SOURCE`, { metadata: ['192.0.2.1'] });
    expect(source.status).toBe(422);
    expect(source.body.error).toMatch(/^metadata kind 'AXFR-SOURCE' has no meaning in zonedeck/);
    expect((await h.json('PUT', `${META}/SOA-EDIT-API`, { metadata: ['SOMETIMES'] })).status).toBe(422);
  });

  it('a kind zonedeck does not keep reads as never set and deletes as nothing; one PowerDNS does not know is 422', async () => {
    const META = `${ZONES}/meta.example./metadata`;
    expect(await h.json('GET', `${META}/AXFR-SOURCE`)).toEqual({ status: 200, body: { type: 'Metadata', kind: 'AXFR-SOURCE', metadata: [] } });
    expect(await h.json('GET', `${META}/X-MYMETA`)).toEqual({ status: 200, body: { type: 'Metadata', kind: 'X-MYMETA', metadata: [] } });
    expect((await h.call('DELETE', `${META}/AXFR-SOURCE`)).status).toBe(204);
    expect((await h.json('POST', META, { kind: 'X-MYMETA', metadata: ['note'] })).status).toBe(422);
    expect(await h.json('GET', `${META}/NO-SUCH-KIND`)).toEqual({ status: 422, body: { error: "Unsupported metadata kind 'NO-SUCH-KIND'" } });
    // PowerDNS's read-only kinds may be read, not written.
    expect((await h.json('GET', `${META}/NSEC3PARAM`)).body.metadata).toEqual([]);
    expect((await h.json('PUT', `${META}/NSEC3PARAM`, { metadata: ['1 0 0 -'] })).body.error).toBe("Unsupported metadata kind 'NSEC3PARAM'");
  });

  it("ALLOW-AXFR-FROM, ALSO-NOTIFY and TSIG-ALLOW-AXFR are the zone's own transfers, as the API shows them", async () => {
    expect((await h.json('POST', ZONES, { name: 'xfr.example.', kind: 'Native' })).status).toBe(201);
    expect((await h.t.request('POST', '/api/v1/tsig-keys', { token: h.token, body: { name: 'xfr-key' } })).status).toBe(201);
    const META = `${ZONES}/xfr.example./metadata`;
    const shown = async () => (await h.t.request('GET', '/api/v1/domains/xfr.example', { token: h.token })).json();
    expect(await h.json('PUT', `${META}/ALLOW-AXFR-FROM`, { metadata: ['192.0.2.0/24'] })).toEqual({ status: 200, body: { type: 'Metadata', kind: 'ALLOW-AXFR-FROM', metadata: ['192.0.2.0/24'] } });
    // POST adds, as PowerDNS's does; an address without a port is port 53.
    expect((await h.json('POST', META, { kind: 'ALLOW-AXFR-FROM', metadata: ['2001:db8::/32'] })).body.metadata).toEqual(['192.0.2.0/24', '2001:db8::/32']);
    expect((await h.json('PUT', `${META}/ALSO-NOTIFY`, { metadata: ['192.0.2.1', '[2001:db8::1]:5300', '2001:db8::2'] })).body.metadata).toEqual([
      '192.0.2.1:53',
      '[2001:db8::1]:5300',
      '[2001:db8::2]:53',
    ]);
    expect((await h.json('PUT', `${META}/TSIG-ALLOW-AXFR`, { metadata: ['xfr-key.'] })).body.metadata).toEqual(['xfr-key']);
    expect(await shown()).toMatchObject({ allow_transfer: ['192.0.2.0/24', '2001:db8::/32'], also_notify: ['192.0.2.1:53', '[2001:db8::1]:5300', '[2001:db8::2]:53'], transfer_tsig_key: 'xfr-key' });
    expect((await h.json('GET', META)).body.map((e: { kind: string }) => e.kind)).toEqual(['SOA-EDIT-API', 'RFC1123-CONFORMANCE', 'ALLOW-AXFR-FROM', 'ALSO-NOTIFY', 'TSIG-ALLOW-AXFR']);
    // What zonedeck cannot keep is 422, and changes nothing.
    expect((await h.json('PUT', `${META}/ALLOW-AXFR-FROM`, { metadata: ['AUTO-NS'] })).body.error).toMatch(/AUTO-NS/);
    expect((await h.json('PUT', `${META}/ALSO-NOTIFY`, { metadata: ['ns1.example.net'] })).body.error).toMatch(/also_notify/);
    expect((await h.json('PUT', `${META}/TSIG-ALLOW-AXFR`, { metadata: ['a', 'b'] })).status).toBe(422);
    expect((await h.json('PUT', `${META}/TSIG-ALLOW-AXFR`, { metadata: ['nobody-key'] })).body.error).toMatch(/transfer_tsig_key/);
    expect((await shown()).transfer_tsig_key).toBe('xfr-key');
    for (const kind of ['ALLOW-AXFR-FROM', 'ALSO-NOTIFY', 'TSIG-ALLOW-AXFR']) expect((await h.call('DELETE', `${META}/${kind}`)).status).toBe(204);
    expect(await shown()).toMatchObject({ allow_transfer: [], also_notify: [], transfer_tsig_key: null });
  });

  it('RFC1123-CONFORMANCE is 0: an underscore is taken in a name and a target; 1 is refused', async () => {
    const META = `${ZONES}/meta.example./metadata`;
    expect(await h.json('POST', META, { kind: 'RFC1123-CONFORMANCE', metadata: ['0'] })).toEqual({ status: 201, body: { type: 'Metadata', kind: 'RFC1123-CONFORMANCE', metadata: ['0'] } });
    expect((await h.json('PUT', `${META}/RFC1123-CONFORMANCE`, { metadata: ['1'] })).status).toBe(422);
    expect((await h.call('DELETE', `${META}/RFC1123-CONFORMANCE`)).status).toBe(422);
    const rrsets = [
      { name: '_under_.meta.example.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '192.0.2.1' }] },
      { name: 'meta.example.', type: 'MX', ttl: 60, changetype: 'REPLACE', records: [{ content: '10 _mx.meta.example.' }] },
    ];
    expect((await h.json('PATCH', `${ZONES}/meta.example.`, { rrsets })).status).toBe(204);
  });
});
