/**
 * The operator's view through the API: an administrator lists every account's zones and reads any
 * of them (records, history, settings, DNSSEC, the zone file) but writes none; anyone else gets 403
 * for the list and 404 for another account's zone, as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dashboardSignIn } from '../../testing/dashboard-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let root: string;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp();
  root = await t.user('root');
  alice = await t.user('alice');
  bob = await t.user('bob');
  await t.forge.users.update((await t.services.accounts.userByName('root')).id, { is_admin: true });
  for (const [token, zone] of [
    [alice, 'alice-shop.com'],
    [alice, 'example.com'],
    [bob, 'bob.org'],
    [root, 'operator.net'],
  ] as const) {
    expect((await t.request('POST', '/api/v1/domains', { token, body: { name: zone } })).status).toBe(201);
  }
  const added = await t.request('POST', '/api/v1/domains/example.com/records', { token: alice, body: { name: 'www', record_type: 'A', content: '192.0.2.7', ttl: '300' } });
  expect(added.status).toBe(200);
});
afterEach(() => t.close());

const list = async (token: string, query = '') => t.request('GET', `/api/v1/admin/domains${query}`, { token });

describe('GET /admin/domains', () => {
  it("lists every account's zones with who holds them, their size, serial and state", async () => {
    const res = await list(root);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('4');
    const zones = await res.json();
    expect(zones.map((z: { name: string; held_by: string }) => `${z.name}:${z.held_by}`)).toEqual(['alice-shop.com:alice', 'bob.org:bob', 'example.com:alice', 'operator.net:root']);
    const example = zones.find((z: { name: string }) => z.name === 'example.com');
    const own = await (await t.request('GET', '/api/v1/domains/example.com', { token: alice })).json();
    expect(example).toMatchObject({ team: null, serial_number: own.serial_number, dnssec_enabled: false, delegation: 'unknown', kind: 'primary' });
    // As many as the zone's own record list counts.
    const records = await t.request('GET', '/api/v1/domains/example.com/records', { token: alice });
    expect(example.record_count).toBe(Number(records.headers.get('x-total-count')));
    expect(zones.find((z: { name: string }) => z.name === 'bob.org').record_count).toBe(example.record_count - 1);
  });

  it("searches by zone name and by the holder's name, and pages", async () => {
    const names = async (query: string) => (await (await list(root, query)).json()).map((z: { name: string }) => z.name);
    expect(await names('?search=alice')).toEqual(['alice-shop.com', 'example.com']);
    expect(await names('?search=BOB')).toEqual(['bob.org']);
    expect(await names('?search=%25')).toEqual([]);
    const page = await list(root, '?per_page=3&page=2');
    expect(await page.json()).toHaveLength(1);
    expect(page.headers.get('link')).toContain('rel="prev"');
  });

  it('answers 403 to anyone who is not an administrator, and 400 naming a bad page', async () => {
    for (const token of [alice, bob]) {
      const res = await list(token, '?search=alice');
      expect(res.status).toBe(403);
      expect((await res.json()).error.message).toBe("only an administrator may list every account's zones");
    }
    const bad = await list(root, '?per_page=501');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('per_page');
  });
});

describe("an administrator reading another account's zone", () => {
  it('reads its settings with whose it is, its records, history, DNSSEC and zone file', async () => {
    const zone = await t.request('GET', '/api/v1/domains/example.com', { token: root });
    expect(zone.status).toBe(200);
    expect(await zone.json()).toMatchObject({ name: 'example.com', held_by: 'alice', administrator_view: true, role: 'viewer' });
    const records = await (await t.request('GET', '/api/v1/domains/example.com/records?record_type=A', { token: root })).json();
    expect(records.map((r: { fqdn: string; content: string }) => `${r.fqdn} ${r.content}`)).toEqual(['www.example.com 192.0.2.7']);
    for (const path of ['changes', 'dnssec', 'zone']) expect((await t.request('GET', `/api/v1/domains/example.com/${path}`, { token: root })).status).toBe(200);
  });

  it('writes nothing: every write is a 403 naming the holder, and the zone is as it was', async () => {
    const before = await (await t.request('GET', '/api/v1/domains/example.com', { token: alice })).json();
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/api/v1/domains/example.com/records', { name: 'evil', record_type: 'A', content: '192.0.2.66', ttl: '60' }],
      ['PUT', '/api/v1/domains/example.com', { minimum_ttl: 60 }],
      ['PATCH', '/api/v1/domains/example.com/rrsets', { rrsets: [] }],
      ['DELETE', '/api/v1/domains/example.com'],
      ['PUT', '/api/v1/domains/example.com/owner', { team: 'x' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.request(method, path, { token: root, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).error.message).toContain('example.com is held by alice');
    }
    expect(await (await t.request('GET', '/api/v1/domains/example.com', { token: alice })).json()).toEqual(before);
  });

  it('keeps its own zones its own (no administrator view) and its own list to itself', async () => {
    expect(await (await t.request('GET', '/api/v1/domains/operator.net', { token: root })).json()).not.toHaveProperty('administrator_view');
    const mine = await (await t.request('GET', '/api/v1/domains', { token: root })).json();
    expect(mine.map((z: { name: string }) => z.name)).toEqual(['operator.net']);
  });

  it("leaves another user's zone a 404 to a user who is not an administrator", async () => {
    for (const path of ['', '/records', '/changes', '/zone']) expect((await t.request('GET', `/api/v1/domains/example.com${path}`, { token: bob })).status).toBe(404);
  });
});

describe('hostile requests', () => {
  it('answers bad pages and searches with a 400 naming the parameter, and other spellings of the path with nothing', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      ['?page=-1', 'page'],
      ['?per_page=abc', 'per_page'],
      [`?search=${'a'.repeat(254)}`, 'search'],
    ] as const) {
      const res = await list(root, query);
      expect(res.status, query).toBe(400);
      expect((await res.json()).error.fields).toHaveProperty(field);
    }
    for (const path of ['/api/v1/admin/domains/example.com', '/api/v1/admin', '/api/v1/admin/domains/../users']) expect((await t.request('GET', path, { token: root })).status, path).toBe(404);
    // LIKE wildcards are searched as themselves.
    expect(await (await list(root, '?search=_')).json()).toEqual([]);
  });

  it("gives a user's dashboard session no more than their token: 403 for the list, 404 for another account's zone", async () => {
    const browser = await dashboardSignIn(t, 'bob', 'password123');
    expect(browser.status).toBe(200);
    expect((await browser.send('GET', '/bff/api/admin/domains')).status).toBe(403);
    expect((await browser.send('GET', '/bff/api/domains/example.com')).status).toBe(404);
    expect((await browser.send('GET', '/bff/api/records?name=www&accounts=all')).status).toBe(403);
    const admin = await dashboardSignIn(t, 'root', 'password123');
    expect((await admin.send('GET', '/bff/api/admin/domains')).status).toBe(200);
    expect((await admin.send('DELETE', '/bff/api/domains/example.com')).status).toBe(403);
    expect((await t.request('GET', '/api/v1/domains/example.com', { token: alice })).status).toBe(200);
  });
});
