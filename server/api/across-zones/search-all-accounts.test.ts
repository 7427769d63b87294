/**
 * The search across zones with `accounts=all`: an administrator finds every account's records; a
 * user who is not one can never widen their search, however the parameter is spelled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  for (const [token, zone, content] of [
    [alice, 'example.com', '192.0.2.7'],
    [bob, 'bob.org', '192.0.2.8'],
    [root, 'operator.net', '192.0.2.9'],
  ] as const) {
    expect((await t.request('POST', '/api/v1/domains', { token, body: { name: zone } })).status).toBe(201);
    expect((await t.request('POST', `/api/v1/domains/${zone}/records`, { token, body: { name: 'www', record_type: 'A', content, ttl: '300' } })).status).toBe(200);
  }
});
afterEach(() => t.close());

const search = (token: string, query: string) => t.request('GET', `/api/v1/records?${query}`, { token });
const found = async (token: string, query: string) => {
  const res = await search(token, query);
  expect(res.status).toBe(200);
  return (await res.json()).map((r: { fqdn: string }) => r.fqdn);
};

describe('GET /records?accounts=all', () => {
  it("finds every account's records for an administrator, by name, content and network", async () => {
    expect(await found(root, 'name=www')).toEqual(['www.operator.net']);
    expect(await found(root, 'name=www&accounts=all')).toEqual(['www.bob.org', 'www.example.com', 'www.operator.net']);
    expect(await found(root, 'content=192.0.2.0/24&accounts=all')).toEqual(['www.bob.org', 'www.example.com', 'www.operator.net']);
    expect(await found(root, 'type=A&zone=example.com&accounts=all')).toEqual(['www.example.com']);
    const page = await search(root, 'name=www&accounts=all&per_page=2');
    expect(page.headers.get('x-total-count')).toBe('3');
  });

  it('refuses a user who is not an administrator (403) and never shows them another account, however it is asked', async () => {
    const res = await search(alice, 'name=www&accounts=all');
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toBe("only an administrator may search every account's zones");
    for (const query of ['name=www&accounts=ALL', 'name=www&accounts=*', 'name=www&accounts[]=all', 'name=www&accounts=own', 'name=www&zone=bob.org', 'content=192.0.2.0/24&accounts=own']) {
      const r = await search(alice, query);
      const hits = r.status === 200 ? (await r.json()).map((h: { fqdn: string }) => h.fqdn) : [];
      expect(
        hits.filter((f: string) => f !== 'www.example.com'),
        query,
      ).toEqual([]);
    }
    expect((await search(alice, 'name=www&accounts=everyone')).status).toBe(400);
    expect((await (await search(alice, 'name=www&accounts=everyone')).json()).error.fields).toHaveProperty('accounts');
  });

  it("keeps a bulk change to the administrator's own zones", async () => {
    const res = await t.request('POST', '/api/v1/records/bulk?accounts=all', { token: root, body: { content: '192.0.2.7', match: 'exact', action: 'delete' } });
    expect(res.status).toBe(200);
    expect((await res.json()).zones).toEqual([]);
    expect(await found(alice, 'name=www')).toEqual(['www.example.com']);
  });
});
