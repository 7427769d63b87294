import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ NAMESERVERS: 'ns1.dns.test,ns2.dns.test' });
  await t.user('alice');
});
afterEach(() => t.close());

const create = (body: unknown) => t.request('POST', '/api/v1/domains', { body });
const put = (name: string, body: unknown) => t.request('PUT', `/api/v1/domains/${name}`, { body });
const get = async (name: string) => (await t.request('GET', `/api/v1/domains/${name}`)).json();

describe('POST /domains', () => {
  it('creates a zone (201) with SOA defaults, a dated serial and the apex NS set', async () => {
    const res = await create({ name: 'Example.COM.' });
    expect(res.status).toBe(201);
    const d = await res.json();
    expect(d).toEqual({
      name: 'example.com',
      delegated: false,
      // No check has answered (none runs without RESOLVER): not known, rather than "not delegated".
      delegation: 'unknown',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: d.created_at,
      serial_number: expect.any(Number),
      refresh_interval: 10800,
      retry_interval: 3600,
      expire_interval: 1209600,
      minimum_ttl: 3600,
      dnssec_enabled: false,
      ds_records: [],
      dnskey_records: [],
      kind: 'primary',
      primaries: [],
      also_notify: [],
      allow_transfer: [],
      transfer_tsig_key: null,
      dnssec_policy: { algorithm: 'ecdsap256sha256', keys: 'csk', zsk_lifetime_days: 90, ksk_lifetime_days: null, denial: 'compact' },
    });
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(String(d.serial_number)).toBe(`${today}00`);
    const ns = await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=NS')).json();
    expect(ns.map((r: { content: string }) => r.content)).toEqual(['ns1.dns.test', 'ns2.dns.test']);
    expect(ns[0]).toMatchObject({ name: '@', fqdn: 'example.com' });
  });

  it('stores an internationalized name as punycode', async () => {
    expect((await (await create({ name: 'bücher.example' })).json()).name).toBe('xn--bcher-kva.example');
  });

  it('accepts SOA fields at creation and validates them', async () => {
    const ok = await create({ name: 'a.example', minimum_ttl: 300, dnssec_enabled: true });
    expect(await ok.json()).toMatchObject({ minimum_ttl: 300, dnssec_enabled: true });
    const bad = await create({ name: 'b.example', retry_interval: 10 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual({ retry_interval: 'must be a whole number of seconds from 600 to 3600' });
  });

  it.each([
    [{}, { name: 'is required' }],
    [{ name: 5 }, { name: 'must be a domain name' }],
    [{ name: 'no_underscore.example' }, { name: expect.stringMatching(/may contain only letters, digits and hyphens/) }],
    [{ name: 'com' }, { name: 'must have at least two labels, like example.com' }],
    [{ name: 'x.example', serial_number: 5 }, { serial_number: 'is read-only' }],
    [{ name: 'x.example', colour: 'red' }, { colour: 'is not a known field' }],
  ])('rejects %j naming the field', async (body, fields) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ status: 400, code: 'invalid_field', fields });
    expect(await (await t.request('GET', '/api/v1/domains')).json()).toEqual([]);
  });

  it('answers 409 for a name that already exists', async () => {
    await create({ name: 'example.com' });
    const res = await create({ name: 'EXAMPLE.com' });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: 'conflict', fields: { name: 'you already manage this domain' } });
  });
});

describe('GET /domains and GET, DELETE /domains/:name', () => {
  it('lists by name with pagination and search, gets one, deletes one', async () => {
    for (const n of ['c.example', 'a.example', 'b.example']) await create({ name: n });
    const list = await t.request('GET', '/api/v1/domains?per_page=2');
    expect((await list.json()).map((d: { name: string }) => d.name)).toEqual(['a.example', 'b.example']);
    expect(list.headers.get('x-total-count')).toBe('3');
    const search = await (await t.request('GET', '/api/v1/domains?search=B.EX')).json();
    expect(search.map((d: { name: string }) => d.name)).toEqual(['b.example']);
    expect((await get('b.example')).name).toBe('b.example');
    expect((await get('b.example.json')).name).toBe('b.example');
    const del = await t.request('DELETE', '/api/v1/domains/b.example');
    expect(del.status).toBe(200);
    expect((await del.json()).name).toBe('b.example');
    expect((await t.request('GET', '/api/v1/domains/b.example')).status).toBe(404);
    expect((await t.request('GET', '/api/v1/domains/b.example/records')).status).toBe(404);
  });
});

describe('PUT /domains/:name', () => {
  beforeEach(async () => {
    await create({ name: 'example.com' });
  });

  it('updates only the fields sent, bumps the serial and updated_at', async () => {
    const before = await get('example.com');
    const res = await put('example.com', { refresh_interval: 7200, dnssec_enabled: true });
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after).toMatchObject({ refresh_interval: 7200, dnssec_enabled: true, retry_interval: before.retry_interval, minimum_ttl: before.minimum_ttl });
    expect(after.serial_number).toBeGreaterThan(before.serial_number);
    expect(after.updated_at >= before.updated_at).toBe(true);
    expect(after.created_at).toBe(before.created_at);
  });

  it('treats /domains/:name.json as the same operation', async () => {
    const res = await put('example.com.json', { minimum_ttl: 300 });
    expect(res.status).toBe(200);
    expect((await get('example.com')).minimum_ttl).toBe(300);
  });

  it('does not bump the serial for a patch that changes nothing', async () => {
    const before = await get('example.com');
    const after = await (await put('example.com', { minimum_ttl: before.minimum_ttl })).json();
    expect(after.serial_number).toBe(before.serial_number);
  });

  it.each([
    [{ refresh_interval: 599 }, { refresh_interval: 'must be a whole number of seconds from 600 to 86400' }],
    [{ retry_interval: 3601 }, { retry_interval: 'must be a whole number of seconds from 600 to 3600' }],
    [{ expire_interval: 2419201 }, { expire_interval: 'must be a whole number of seconds from 86400 to 2419200' }],
    [{ minimum_ttl: 59 }, { minimum_ttl: 'must be a whole number of seconds from 60 to 86400' }],
    [{ refresh_interval: 1200 }, { refresh_interval: 'must not be less than retry_interval (3600)' }],
    [{ minimum_ttl: '300' }, { minimum_ttl: 'must be a whole number of seconds' }],
    [{ minimum_ttl: 300.5 }, { minimum_ttl: 'must be a whole number of seconds' }],
    [{ dnssec_enabled: 'yes' }, { dnssec_enabled: 'must be true or false' }],
    [{ name: 'other.example' }, { name: 'is read-only' }],
    [
      { serial_number: 1, delegated: true, delegation: 'delegated', created_at: 'x' },
      { serial_number: 'is read-only', delegated: 'is read-only', delegation: 'is read-only', created_at: 'is read-only' },
    ],
    [[], { body: 'must be a JSON object' }],
  ])('rejects %j with 400 per field and changes nothing', async (body, fields) => {
    const before = await get('example.com');
    const res = await put('example.com', body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual(fields);
    expect(await get('example.com')).toEqual(before);
  });

  it('answers 404 for a zone that does not exist', async () => {
    expect((await put('nope.example', { minimum_ttl: 300 })).status).toBe(404);
  });
});
