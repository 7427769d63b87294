/**
 * DNSKEY, RRSIG, NSEC, NSEC3 and NSEC3PARAM come only from a signed primary by zone transfer:
 * every user write path refuses them on a primary zone, naming the field (the API's records and
 * RRsets, templates, the PowerDNS API; RFC 2136 answers REFUSED), and a zone file that holds them
 * lists them as ignored. Nothing is written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { UPDATE_RCODE } from '../../services/changes/dynamic-updates';

let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'example.com' } })).status).toBe(201);
});
afterEach(() => t.close());

const Z = '/api/v1/domains/example.com';
const KEY = '257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const SIG = 'A 13 3 300 20261228000000 20261128000000 12345 example.com oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108dUKGMeDPKijVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/Mw==';
const fields = async (res: Response) => ({ status: res.status, fields: ((await res.json()) as { error: { fields: Record<string, string> } }).error.fields });
const stored = async () => (await t.services.store.records.atName((await t.services.store.domains.byName('example.com'))!.id, 'www')).map((r) => r.record_type);

describe('a user never writes the DNSSEC records of a signed primary', () => {
  it.each([
    ['@', 'DNSKEY', KEY],
    ['www', 'RRSIG', SIG],
    ['www', 'NSEC', 'example.com. A RRSIG NSEC'],
    ['www', 'NSEC3', '1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S A RRSIG'],
    ['@', 'NSEC3PARAM', '1 0 0 -'],
  ])('POST records %s %s: 400 on record_type', async (name, record_type, content) => {
    const res = await fields(await t.request('POST', `${Z}/records`, { token: alice, body: { name, record_type, content } }));
    expect(res.status).toBe(400);
    expect(res.fields.record_type).toMatch(`${record_type} records come only from a signed primary by zone transfer`);
  });

  it('PATCH rrsets: 400 naming the RRset, nothing written', async () => {
    const body = {
      rrsets: [
        { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
        { name: 'www', record_type: 'RRSIG', changetype: 'REPLACE', records: [SIG] },
      ],
    };
    const res = await fields(await t.request('PATCH', `${Z}/rrsets`, { token: alice, body }));
    expect(res.status).toBe(400);
    expect(Object.entries(res.fields)).toEqual([[expect.stringMatching(/^rrsets\.1/), expect.stringMatching(/RRSIG records come only from a signed primary/)]]);
    expect(await stored()).toEqual([]);
  });

  it('a template that writes one: 400 on the RRset’s record_type when saved', async () => {
    const res = await fields(await t.request('POST', '/api/v1/templates', { token: alice, body: { name: 'keys', rrsets: [{ name: '@', record_type: 'DNSKEY', ttl: 3600, records: [KEY] }] } }));
    expect(res.status).toBe(400);
    expect(res.fields['rrsets.0.record_type']).toMatch(/DNSKEY records come only from a signed primary/);
  });

  it('the PowerDNS API: 422 naming the RRset', async () => {
    const res = await t.request('PATCH', '/api/v1/servers/localhost/zones/example.com.', {
      token: null,
      headers: { 'x-api-key': alice },
      body: { rrsets: [{ name: 'www.example.com.', type: 'NSEC', ttl: 300, changetype: 'REPLACE', records: [{ content: 'example.com. A RRSIG NSEC', disabled: false }] }] },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(await res.json())).toMatch(/NSEC records come only from a signed primary/);
    expect(await stored()).toEqual([]);
  });

  it('RFC 2136: REFUSED, nothing written', async () => {
    const aliceId = (await t.services.accounts.userByName('alice')).id;
    await t.services.tsigKeys.create(aliceId, { name: 'alice-key', scope: {} });
    const rcode = await t.services.updates.apply({
      zone: 'example.com',
      prerequisites: [],
      updates: [{ name: 'www', type: 'NSEC', cls: 'zone', content: 'example.com A RRSIG NSEC', ttl: 300 }],
      key: 'alice-key',
      address: '192.0.2.53',
    });
    expect(rcode).toBe(UPDATE_RCODE.REFUSED);
    expect(await stored()).toEqual([]);
  });

  it('a signed zone file imports without them, listing each as ignored', async () => {
    const file = `$ORIGIN example.com.\nwww 300 IN A 192.0.2.1\nwww 300 IN RRSIG ${SIG.replace('example.com', 'example.com.')}\nwww 300 IN NSEC example.com. A RRSIG NSEC\n`;
    const res = await t.request('POST', `${Z}/zone?mode=merge`, { token: alice, raw: file, headers: { 'content-type': 'text/dns' } });
    expect(res.status).toBeLessThan(300);
    expect(JSON.stringify(await res.json())).toMatch(/RRSIG/);
    expect(await stored()).toEqual(['A']);
  });
});
