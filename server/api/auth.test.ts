import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;

beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
  await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'alice.example' } });
});
afterEach(() => t.close());

describe('authentication', () => {
  it('accepts a bearer token and the apikey query parameter alike', async () => {
    const bearer = await t.request('GET', '/api/v1/domains', { token: alice });
    const query = await t.request('GET', `/api/v1/domains?apikey=${alice}`, { token: null });
    expect(bearer.status).toBe(200);
    expect(query.status).toBe(200);
    expect(await query.json()).toEqual(await bearer.json());
  });

  it.each([
    ['no credentials', {}],
    ['an unknown token', { authorization: 'Bearer zd_not-a-real-token' }],
    ['a malformed header', { authorization: 'Basic abc' }],
  ])('answers 401 with WWW-Authenticate for %s', async (_, headers) => {
    const res = await t.request('GET', '/api/v1/ips', { token: null, headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await res.json()).error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('refuses a revoked token at once', async () => {
    const user = await t.services.accounts.userByName('alice');
    const { row, token } = await t.services.accounts.createToken(user.id, 'temp');
    expect((await t.request('GET', '/api/v1/ips', { token })).status).toBe(200);
    await t.services.accounts.revokeToken(row.id);
    expect((await t.request('GET', '/api/v1/ips', { token })).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const user = await t.services.accounts.userByName('alice');
    const { token } = await t.services.accounts.createToken(user.id, 'old', new Date(Date.now() - 1000).toISOString());
    expect((await t.request('GET', '/api/v1/ips', { token })).status).toBe(401);
  });

  it('stores tokens only as hashes', async () => {
    const rows = await t.services.store.tokens.listByUser((await t.services.accounts.userByName('alice')).id);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(alice);
  });
});

describe('isolation between users', () => {
  it("answers 404 for another user's domain exactly as for a missing one", async () => {
    for (const [method, path, body] of [
      ['GET', '/api/v1/domains/alice.example', undefined],
      ['PUT', '/api/v1/domains/alice.example', { minimum_ttl: 300 }],
      ['DELETE', '/api/v1/domains/alice.example', undefined],
      ['GET', '/api/v1/domains/alice.example/records', undefined],
      ['POST', '/api/v1/domains/alice.example/records', { name: 'x', record_type: 'A', content: '192.0.2.1' }],
      ['GET', '/api/v1/domains/alice.example/records/1', undefined],
      ['PUT', '/api/v1/domains/alice.example/records/1', { content: '192.0.2.9' }],
      ['DELETE', '/api/v1/domains/alice.example/records/1', undefined],
    ] as const) {
      const other = await t.request(method, path, { token: bob, body });
      const missing = await t.request(method, path.replace('alice.example', 'missing.example'), { token: bob, body });
      expect(other.status, `${method} ${path}`).toBe(404);
      expect(missing.status).toBe(404);
      expect((await other.json()).error.code).toBe('not_found');
    }
    const own = await t.request('GET', '/api/v1/domains/alice.example/records', { token: alice });
    expect((await own.json()).length).toBe(2);
  });

  it("lists only the user's own domains and IPs", async () => {
    const bobUser = await t.services.accounts.userByName('bob');
    await t.services.ips.add(bobUser.id, '203.0.113.0/24');
    expect(await (await t.request('GET', '/api/v1/domains', { token: bob })).json()).toEqual([]);
    expect(await (await t.request('GET', '/api/v1/ips', { token: alice })).json()).toEqual([]);
    expect((await (await t.request('GET', '/api/v1/ips', { token: bob })).json()).length).toBe(1);
  });

  it("refuses a zone inside or around another user's zone", async () => {
    const inside = await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'sub.alice.example' } });
    expect(inside.status).toBe(409);
    expect((await inside.json()).error.fields.name).toMatch(/another account/);
    const same = await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'alice.example' } });
    expect(same.status).toBe(409);
    const own = await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'sub.alice.example' } });
    expect(own.status).toBe(201);
  });
});
