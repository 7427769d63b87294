/**
 * Every endpoint × (own, another user's, missing) resource × (bearer, apikey, none, revoked token):
 * only the owner with a live credential gets through; everyone else learns nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let alice: string;
let revoked: string;
let ownRecord: number;
let bobRecord: number;

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  const bob = await t.user('bob');
  const a = await t.services.accounts.userByName('alice');
  const r = await t.services.accounts.createToken(a.id, 'old');
  revoked = r.token;
  await t.services.accounts.revokeToken(r.row.id);
  await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'own.example' } });
  await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'bob.example' } });
  ownRecord = (await (await t.request('POST', '/api/v1/domains/own.example/records', { token: alice, body: { name: 'x', record_type: 'TXT', content: 'a' } })).json()).id;
  bobRecord = (await (await t.request('POST', '/api/v1/domains/bob.example/records', { token: bob, body: { name: 'x', record_type: 'TXT', content: 'b' } })).json()).id;
});
afterAll(() => t.close());

type Target = 'own' | 'other' | 'missing';
const zoneOf = { own: 'own.example', other: 'bob.example', missing: 'missing.example' } as const;
const recordOf = (target: Target) => (target === 'own' ? ownRecord : target === 'other' ? bobRecord : 999_999);

const endpoints: { name: string; path: (t: Target) => string; method: string; body?: (t: Target) => unknown; ok: number }[] = [
  { name: 'GET /domains/:name', method: 'GET', path: (x) => `/api/v1/domains/${zoneOf[x]}`, ok: 200 },
  { name: 'PUT /domains/:name', method: 'PUT', path: (x) => `/api/v1/domains/${zoneOf[x]}.json`, body: () => ({ minimum_ttl: 300 }), ok: 200 },
  { name: 'GET records', method: 'GET', path: (x) => `/api/v1/domains/${zoneOf[x]}/records`, ok: 200 },
  {
    name: 'POST records',
    method: 'POST',
    path: (x) => `/api/v1/domains/${zoneOf[x]}/records`,
    body: () => ({ name: `n${Math.random().toString(36).slice(2)}`, record_type: 'A', content: '192.0.2.1' }),
    ok: 200,
  },
  { name: 'GET record', method: 'GET', path: (x) => `/api/v1/domains/${zoneOf[x]}/records/${recordOf(x)}`, ok: 200 },
  { name: 'PUT record', method: 'PUT', path: (x) => `/api/v1/domains/${zoneOf[x]}/records/${recordOf(x)}`, body: () => ({ ttl: '600' }), ok: 200 },
];

const credentials = {
  bearer: (path: string) => ({ path, token: alice }),
  apikey: (path: string) => ({ path: `${path}${path.includes('?') ? '&' : '?'}apikey=${alice}`, token: null }),
  none: (path: string) => ({ path, token: null }),
  revoked: (path: string) => ({ path, token: revoked }),
} as const;

describe('isolation matrix', () => {
  for (const e of endpoints) {
    for (const target of ['own', 'other', 'missing'] as const) {
      for (const [cred, make] of Object.entries(credentials)) {
        const live = cred === 'bearer' || cred === 'apikey';
        const expected = !live ? 401 : target === 'own' ? e.ok : 404;
        it(`${e.name} on ${target} with ${cred} → ${expected}`, async () => {
          const { path, token } = make(e.path(target));
          const res = await t.request(e.method, path, { token, body: e.body?.(target) });
          expect(res.status).toBe(expected);
          if (expected !== 200) expect((await res.json()).error.status).toBe(expected);
        });
      }
    }
  }

  it("leaves another user's zone untouched after every attempt", async () => {
    const bob = await t.services.store.domains.byName('bob.example');
    const records = await t.services.store.records.byDomain(bob!.id);
    expect(records.map((r) => r.content).sort()).toEqual(['b', 'ns1.zonedeck.test', 'ns2.zonedeck.test']);
    expect(bob!.minimum_ttl).toBe(3600);
  });
});
