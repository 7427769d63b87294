/**
 * DNSSEC through the API: turning it on shows the DS to give the registrar, turning
 * it off removes it, off→on is a new key, the details are read-only, and no private key is
 * ever in a response.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
});
afterEach(() => t.close());

interface Ds {
  key_tag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
  ds: string;
  created_at: string;
}
interface DomainBody {
  name: string;
  dnssec_enabled: boolean;
  ds_records: Ds[];
  dnskey_records: string[];
  serial_number: number;
}

const create = async (body: unknown) => (await t.request('POST', '/api/v1/domains', { body })).json() as Promise<DomainBody>;
const put = (name: string, body: unknown) => t.request('PUT', `/api/v1/domains/${name}`, { body });
const get = async (name: string) => (await (await t.request('GET', `/api/v1/domains/${name}`)).json()) as DomainBody;

/** What a registrar's checker does: hash the published DNSKEY and compare with the DS. */
function digestOf(dnskey: string): { tag: number; digest: string } {
  const [owner, , , flags, protocol, algorithm, key] = dnskey.split(' ');
  const rdata = Buffer.concat([Buffer.from([Number(flags) >> 8, Number(flags) & 255, Number(protocol), Number(algorithm)]), Buffer.from(key!, 'base64')]);
  const wire = Buffer.concat([
    ...owner!
      .split('.')
      .filter(Boolean)
      .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0]),
  ]);
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return { tag: ac & 0xffff, digest: createHash('sha256').update(wire).update(rdata).digest('hex').toUpperCase() };
}

describe('DNSSEC details of a domain', () => {
  it('are empty while DNSSEC is off', async () => {
    const d = await create({ name: 'example.com' });
    expect(d).toMatchObject({ dnssec_enabled: false, ds_records: [], dnskey_records: [] });
  });

  it("show one DS (algorithm 13, SHA-256) matching the zone's DNSKEY once DNSSEC is turned on", async () => {
    await create({ name: 'example.com' });
    const res = await put('example.com', { dnssec_enabled: true });
    expect(res.status).toBe(200);
    const d = (await res.json()) as DomainBody;
    expect(d.ds_records).toHaveLength(1);
    const ds = d.ds_records[0]!;
    expect(ds).toMatchObject({ algorithm: 13, digest_type: 2, digest: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(ds.ds).toBe(`example.com. IN DS ${ds.key_tag} 13 2 ${ds.digest}`);
    expect(d.dnskey_records).toEqual([expect.stringMatching(/^example\.com\. IN DNSKEY 257 3 13 [A-Za-z0-9+/]{86}==$/)]);
    expect(digestOf(d.dnskey_records[0]!)).toEqual({ tag: ds.key_tag, digest: ds.digest });
    // The same details on GET and in the list.
    expect((await get('example.com')).ds_records).toEqual(d.ds_records);
    const list = (await (await t.request('GET', '/api/v1/domains')).json()) as DomainBody[];
    expect(list[0]!.ds_records).toEqual(d.ds_records);
  });

  it('come with the domain when it is created with dnssec_enabled', async () => {
    const d = await create({ name: 'signed.example', dnssec_enabled: true });
    expect(d.ds_records).toHaveLength(1);
    expect(d.ds_records[0]!.ds).toMatch(/^signed\.example\. IN DS \d+ 13 2 [0-9A-F]{64}$/);
  });

  it('disappear when DNSSEC is turned off, and turning it on again makes a new key', async () => {
    const first = await create({ name: 'example.com', dnssec_enabled: true });
    const off = (await (await put('example.com', { dnssec_enabled: false })).json()) as DomainBody;
    expect(off).toMatchObject({ dnssec_enabled: false, ds_records: [], dnskey_records: [] });
    expect(await t.services.store.dnssecKeys.publicKeys([(await t.services.store.domains.byName('example.com'))!.id])).toEqual([]);
    const on = (await (await put('example.com', { dnssec_enabled: true })).json()) as DomainBody;
    expect(on.ds_records).toHaveLength(1);
    expect(on.ds_records[0]!.digest).not.toBe(first.ds_records[0]!.digest);
    expect(on.dnskey_records[0]).not.toBe(first.dnskey_records[0]);
    expect(on.serial_number).toBeGreaterThan(off.serial_number);
  });

  it('keep the same key when other fields change', async () => {
    const first = await create({ name: 'example.com', dnssec_enabled: true });
    const after = (await (await put('example.com', { minimum_ttl: 300, dnssec_enabled: true })).json()) as DomainBody;
    expect(after.ds_records).toEqual(first.ds_records);
  });

  it.each([
    [{ ds_records: [] }, { ds_records: 'is read-only' }],
    [{ dnskey_records: ['x'] }, { dnskey_records: 'is read-only' }],
  ])('are read-only: %j is a 400', async (body, fields) => {
    await create({ name: 'example.com' });
    const res = await put('example.com', body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual(fields);
  });

  it('never include the private key', async () => {
    await create({ name: 'example.com', dnssec_enabled: true });
    const zone = (await t.services.store.domains.byName('example.com'))!;
    const [key] = await t.services.store.dnssecKeys.signingKeys(zone.id);
    const bodies = [
      await (await t.request('GET', '/api/v1/domains/example.com')).text(),
      await (await t.request('GET', '/api/v1/domains')).text(),
      await (await put('example.com', { minimum_ttl: 600 })).text(),
      await (await t.request('DELETE', '/api/v1/domains/example.com')).text(),
    ];
    for (const body of bodies) {
      expect(body).not.toContain(key!.private_key);
      expect(body).not.toContain(key!.private_key.slice(-40));
      expect(body).not.toMatch(/private/i);
    }
    // Deleting the zone deletes its keys.
    expect(await t.services.store.dnssecKeys.signingKeys(zone.id)).toEqual([]);
  });

  it('are described in the OpenAPI document', async () => {
    const doc = await (await t.request('GET', '/api/v1/openapi.json', { token: null })).json();
    expect(doc.components.schemas.Domain.properties).toHaveProperty('ds_records');
    expect(doc.components.schemas.Domain.properties).toHaveProperty('dnskey_records');
    expect(Object.keys(doc.components.schemas.DsRecord.properties)).toEqual(['key_tag', 'algorithm', 'digest_type', 'digest', 'ds', 'created_at']);
  });
});
