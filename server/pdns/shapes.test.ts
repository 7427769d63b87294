/**
 * The examples of the PowerDNS API documentation (fixtures/powerdns-docs.ts), replayed
 * against zonedeck: every documented request is accepted, and every field of every
 * documented answer is in zonedeck's answer with the same JSON type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as docs from './fixtures/powerdns-docs';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';

/** Where `ours` lacks a field of `theirs` or has it with another JSON type ([] when none). */
function shapeGaps(ours: unknown, theirs: unknown, at = '$'): string[] {
  if (theirs === null || theirs === undefined) return [];
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours)) return [`${at}: not an array`];
    return theirs.length > 0 && ours.length > 0 ? shapeGaps(ours[0], theirs[0], `${at}[0]`) : [];
  }
  if (typeof theirs === 'object') {
    if (typeof ours !== 'object' || ours === null || Array.isArray(ours)) return [`${at}: not an object`];
    return Object.entries(theirs).flatMap(([k, v]) => (k in ours ? shapeGaps((ours as Record<string, unknown>)[k], v, `${at}.${k}`) : [`${at}.${k}: missing`]));
  }
  return typeof ours === typeof theirs ? [] : [`${at}: ${typeof ours}, not ${typeof theirs}`];
}

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

describe('the documented examples', () => {
  it('GET /api and the server objects', async () => {
    expect(await h.json('GET', '/api')).toEqual({ status: 200, body: docs.API_VERSIONS });
    const servers = await h.json('GET', '/api/v1/servers');
    // zonedeck has no autoprimaries (secondary zones are not supported): that URL is left out.
    const { autoprimaries_url: _, ...server } = docs.SERVERS[0]!;
    expect(shapeGaps(servers.body, [server])).toEqual([]);
    expect(servers.body[0].version).toMatch(/^4\.[0-9]+\.[0-9]+/);
    expect(shapeGaps((await h.json('GET', '/api/v1/servers/localhost')).body, server)).toEqual([]);
  });

  it('creating, listing and reading a zone', async () => {
    // The apex NS set is zonedeck's own (NAMESERVERS): another set is refused, naming the expected one…
    const foreign = await h.json('POST', ZONES, docs.ZONE_CREATE_REQUEST);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toMatch(/^nameservers: .*"ns1\.zonedeck\.test\.", "ns2\.zonedeck\.test\."/);
    // …and the documented request with the service's set (or none) creates the zone.
    const created = await h.json('POST', ZONES, { ...docs.ZONE_CREATE_REQUEST, nameservers: ['ns1.zonedeck.test.', 'ns2.zonedeck.test.'] });
    expect(created.status).toBe(201);
    expect(shapeGaps(created.body, docs.ZONE)).toEqual([]);
    const [soa, ns] = created.body.rrsets;
    expect(soa).toEqual({
      name: 'example.org.',
      type: 'SOA',
      ttl: 3600,
      records: [{ content: expect.stringMatching(/^ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. [0-9]{10} 10800 3600 1209600 3600$/), disabled: false }],
      comments: [],
    });
    expect(ns.records.map((r: { content: string }) => r.content)).toEqual(['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);

    const list = await h.json('GET', ZONES);
    expect(shapeGaps(list.body, docs.ZONE_LIST)).toEqual([]);
    expect(list.body[0]).not.toHaveProperty('rrsets');
    const zone = await h.json('GET', `${ZONES}/example.org.`);
    expect(shapeGaps(zone.body, docs.ZONE)).toEqual([]);
    expect(zone.body.serial).toBe(zone.body.edited_serial);
  });

  it('the RRset changes, each answered 204 without a body', async () => {
    const rrset = async (name: string, type: string) => (await h.json('GET', `${ZONES}/example.org.?rrset_name=${name}&rrset_type=${type}`)).body.rrsets[0];
    const patch = async (body: unknown) => {
      const res = await h.call('PATCH', `${ZONES}/example.org.`, body);
      return { status: res.status, text: await res.text() };
    };
    expect(await patch(docs.PATCH_CREATE_RRSET)).toEqual({ status: 204, text: '' });
    expect(await rrset('test.example.org.', 'A')).toEqual({ name: 'test.example.org.', type: 'A', ttl: 3600, records: [{ content: '192.168.0.5', disabled: false }], comments: [] });

    // The documentation's TXT placeholder is not quoted; PowerDNS refuses such content, and so does zonedeck.
    const unquoted = await h.json('PATCH', `${ZONES}/example.org.`, docs.PATCH_EXTEND);
    expect(unquoted.status).toBe(422);
    expect(shapeGaps(unquoted.body, docs.ERROR_FIELDS)).toEqual([]);
    const quote = (body: typeof docs.PATCH_EXTEND) => ({ rrsets: body.rrsets.map((rs) => ({ ...rs, records: rs.records.map((r) => ({ ...r, content: `"${r.content}"` })) })) });
    expect(await patch(quote(docs.PATCH_EXTEND))).toEqual({ status: 204, text: '' });
    expect((await rrset('test.example.org.', 'TXT')).records).toEqual([{ content: '"the contents of the records to add"', disabled: false }]);
    // The documented PRUNE names another text than the EXTEND added: "no action is performed and no error is returned".
    expect(await patch(quote(docs.PATCH_PRUNE as typeof docs.PATCH_EXTEND))).toEqual({ status: 204, text: '' });
    expect((await rrset('test.example.org.', 'TXT')).records).toHaveLength(1);
    expect(await patch({ rrsets: [{ ...docs.PATCH_PRUNE.rrsets[0], records: [{ content: '"the contents of the records to add"' }] }] })).toEqual({ status: 204, text: '' });
    expect(await rrset('test.example.org.', 'TXT')).toBeUndefined();

    expect(await patch(docs.PATCH_DELETE_RRSET)).toEqual({ status: 204, text: '' });
    expect(await rrset('test.example.org.', 'A')).toBeUndefined();
  });

  it('cryptokeys and deleting the zone', async () => {
    const key = await h.json('POST', `${ZONES}/example.org./cryptokeys`, { keytype: 'csk', active: true });
    expect(key.status).toBe(201);
    for (const [field, type] of Object.entries(docs.CRYPTOKEY_FIELDS)) expect(typeof key.body[field], field).toBe(type);
    expect(key.body).not.toHaveProperty('privatekey');

    const res = await h.call('DELETE', `${ZONES}/example.org.`);
    expect([res.status, await res.text()]).toEqual([204, '']);
    const gone = await h.json('GET', `${ZONES}/example.org.`);
    expect(gone.status).toBe(404);
    expect(shapeGaps(gone.body, docs.ERROR_FIELDS)).toEqual([]);
  });
});
