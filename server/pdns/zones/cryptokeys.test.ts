/**
 * Cryptokeys mapped to `dnssec_enabled`: POST signs the zone and answers its key with the DS
 * for the parent (the same DS zonedeck's own API shows), DELETE of the last key stops signing.
 * What zonedeck cannot do (other algorithms, imported or inactive keys) is 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../../testing/pdns-harness';

const KEYS = `${ZONES}/example.com./cryptokeys`;
let h: PdnsHarness;

beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.json('POST', ZONES, { name: 'example.com.', kind: 'Native' })).status).toBe(201);
});
afterAll(() => h.t.close());

const domain = async () =>
  (await (await h.t.request('GET', '/api/v1/domains/example.com')).json()) as { dnssec_enabled: boolean; ds_records: Array<{ key_tag: number; ds: string }>; dnskey_records: string[] };

describe('cryptokeys', () => {
  it('an unsigned zone has none', async () => {
    expect(await h.json('GET', KEYS)).toEqual({ status: 200, body: [] });
    expect((await h.json('GET', `${ZONES}/example.com.?rrsets=false`)).body.dnssec).toBe(false);
  });

  it.each([
    [{ keytype: 'zsk' }, /keytype 'zsk'/],
    [{ algorithm: 'RSASHA256', bits: 2048 }, /algorithm 'RSASHA256'/],
    [{ algorithm: 13, bits: 384 }, /bits/],
    [{ privatekey: 'Private-key-format: v1.2 Algorithm: 13 (ECDSAP256SHA256) PrivateKey: abc=' }, /importing/],
    [{ active: false }, /always active/],
  ])('POST %j: 422, still unsigned', async (body, message) => {
    const res = await h.json('POST', KEYS, body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
    expect((await domain()).dnssec_enabled).toBe(false);
  });

  it('POST signs the zone: 201 with the key and the DS the parent needs, as zonedeck’s API shows it', async () => {
    const res = await h.json('POST', KEYS, { keytype: 'ksk', active: true, published: true, algorithm: 'ECDSAP256SHA256', bits: 256 });
    expect(res.status).toBe(201);
    const d = await domain();
    expect(d.dnssec_enabled).toBe(true);
    const [ds] = d.ds_records;
    expect(res.body).toEqual({
      type: 'Cryptokey',
      id: expect.any(Number),
      keytype: 'csk',
      active: true,
      published: true,
      flags: 257,
      dnskey: d.dnskey_records[0]!.replace(/^example\.com\. IN DNSKEY /, ''),
      ds: [ds!.ds.replace(/^example\.com\. IN DS /, '').replace(/[0-9A-F]{64}$/, (hex) => hex.toLowerCase())],
      algorithm: 'ECDSAP256SHA256',
      bits: 256,
    });
    expect(res.body.ds[0]).toMatch(new RegExp(`^${ds!.key_tag} 13 2 [0-9a-f]{64}$`));
    expect((await h.json('GET', KEYS)).body).toEqual([res.body]);
    expect(await h.json('GET', `${KEYS}/${res.body.id}`)).toEqual({ status: 200, body: res.body });
    expect((await h.json('GET', `${ZONES}/example.com.?rrsets=false`)).body.dnssec).toBe(true);
    const [change] = (await (await h.t.request('GET', '/api/v1/domains/example.com/changes')).json()) as Array<{ source: string; settings: Record<string, unknown> }>;
    expect(change).toMatchObject({ source: 'pdns', settings: { dnssec_enabled: [false, true] } });
  });

  it('a second POST is 422 (one key per zone); PUT keeps it active, refuses to deactivate; unknown ids 404', async () => {
    const [key] = (await h.json('GET', KEYS)).body;
    expect((await h.json('POST', KEYS, {})).body.error).toMatch(/already signed with key/);
    expect(await h.json('PUT', `${KEYS}/${key.id}`, { active: true })).toEqual({ status: 204, body: null });
    expect((await h.json('PUT', `${KEYS}/${key.id}`, { active: false })).status).toBe(422);
    for (const [method, id] of [
      ['GET', '999'],
      ['PUT', '999'],
      ['DELETE', '999'],
      ['GET', 'x'],
    ] as const) {
      expect(await h.json(method, `${KEYS}/${id}`, method === 'PUT' ? { active: true } : undefined)).toEqual({ status: 404, body: { error: 'Not Found' } });
    }
  });

  it('DELETE of the last key stops signing', async () => {
    const [key] = (await h.json('GET', KEYS)).body;
    expect(await h.json('DELETE', `${KEYS}/${key.id}`)).toEqual({ status: 204, body: null });
    expect(await h.json('GET', KEYS)).toEqual({ status: 200, body: [] });
    expect((await domain()).dnssec_enabled).toBe(false);
  });

  it('during a rollover a key cannot be deleted here (the rollover finishes by itself), and the new key shows as published', async () => {
    expect((await h.json('POST', KEYS, { keytype: 'csk', active: true })).status).toBe(201);
    const zone = (await h.t.services.store.domains.byName('example.com'))!;
    await h.t.services.dnssec.startNow(zone, 'csk', { source: 'cli', actor: { username: '', credential: 'cli' } });
    const keys = (await h.json('GET', KEYS)).body as Array<{ id: number; keytype: string; published: boolean; active: boolean }>;
    expect(keys.map((k) => [k.keytype, k.published, k.active])).toEqual([
      ['csk', true, true],
      ['csk', true, true],
    ]);
    expect((await h.json('DELETE', `${KEYS}/${keys[0]!.id}`)).body.error).toMatch(/rollover/);
  });
});
