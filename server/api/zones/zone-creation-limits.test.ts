/**
 * Racing creations cannot nest zones
 * across accounts, public suffixes and the service's own domains cannot be created, and per-user
 * limits on zones, API tokens and TSIG keys hold, also when creations race. Both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestApp({ MAX_ZONES_PER_USER: '60', MAX_TOKENS_PER_USER: '4', MAX_TSIG_KEYS_PER_USER: '3', CATALOG_ZONE: 'catalog.ops.example' });
  alice = await t.user('alice');
  bob = await t.user('bob');
});
afterAll(() => t.close());

const create = (token: string, name: string) => t.request('POST', '/api/v1/domains', { token, body: { name } });

describe('zone creation is serialized', () => {
  it('two accounts racing for raceN.test and sub.raceN.test never both get theirs', async () => {
    let nested = 0;
    for (let n = 0; n < 25; n++) {
      const [a, b] = await Promise.all([create(alice, `race${n}.test`), create(bob, `sub.race${n}.test`)]);
      if (a.status === 201 && b.status === 201) nested++;
      expect([a.status, b.status].sort()).toEqual([201, 409]);
    }
    expect(nested).toBe(0);
  });
});

describe('public suffixes and the service’s own domains', () => {
  it.each([
    ['co.uk', /is a public suffix/],
    ['github.io', /is a public suffix/],
    ['s3.amazonaws.com', /is a public suffix/],
    ['zonedeck.test', /this service uses for its own name servers/],
    ['ns1.zonedeck.test', /this service uses for its own name servers/],
    ['catalog.ops.example', /catalog zone/],
    ['ops.example', /this service uses for its own name servers/],
  ])('%s: 409 naming the field, nothing created', async (name, message) => {
    const res = await create(alice, name);
    expect(res.status).toBe(409);
    const { error } = await res.json();
    expect(error.fields.name).toMatch(message);
    expect((await t.request('GET', `/api/v1/domains/${name}`, { token: alice })).status).toBe(404);
  });

  it('a registrable domain below a public suffix is fine, and so is the PowerDNS path refusing the same', async () => {
    expect((await create(alice, 'example.co.uk')).status).toBe(201);
    expect((await create(alice, 'mine.github.io')).status).toBe(201);
    const pdns = await t.request('POST', '/api/v1/servers/localhost/zones', { token: null, headers: { 'x-api-key': alice }, body: { name: 'co.uk.', kind: 'Native' } });
    expect(pdns.status).toBe(409);
  });
});

describe('per-user quotas', () => {
  it('MAX_TOKENS_PER_USER: 403 naming the limit; dashboard session tokens do not count', async () => {
    const carol = await t.user('carol'); // one token
    const made = await Promise.all([1, 2, 3, 4, 5].map(() => t.request('POST', '/api/v1/tokens', { token: carol, body: { label: 'x' } })));
    expect(made.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403]);
    const refused = await made.find((r) => r.status === 403)!.json();
    expect(refused.error.message).toMatch(/4 is the most one user may have \(MAX_TOKENS_PER_USER\)/);
    // Signing in to the dashboard still works at the limit.
    const user = await t.services.accounts.userByName('carol');
    await expect(t.services.accounts.createToken(user.id, 'dashboard session', null, undefined, true)).resolves.toMatchObject({ token: expect.any(String) });
  });

  it('MAX_TSIG_KEYS_PER_USER, also when creations race', async () => {
    const dave = await t.user('dave');
    const made = await Promise.all([1, 2, 3, 4, 5].map((i) => t.request('POST', '/api/v1/tsig-keys', { token: dave, body: { name: `dave-${i}` } })));
    expect(made.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403]);
    expect((await made.find((r) => r.status === 403)!.json()).error.message).toMatch(/MAX_TSIG_KEYS_PER_USER/);
  });

  it('MAX_ZONES_PER_USER, also when creations race', async () => {
    const erin = await t.user('erin');
    const made = await Promise.all(Array.from({ length: 64 }, (_, i) => create(erin, `erin${i}.test`)));
    const statuses = made.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(60);
    expect(statuses.filter((s) => s === 403)).toHaveLength(4);
    expect((await made.find((r) => r.status === 403)!.json()).error.message).toMatch(/60 is the most one user may have \(MAX_ZONES_PER_USER\)/);
  });
});
