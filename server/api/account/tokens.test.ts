/** The tokens API: the secret shown once and working, lists without secrets, expiry, revocation, isolation, input errors. */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_MESSAGE } from '../../core/text-rules';
import { dashboardSignIn } from '../../testing/dashboard-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
});
afterEach(() => t.close());

const TOKEN_SHAPE = /zd_[A-Za-z0-9_-]{32}/;

async function create(body: unknown, token = alice) {
  const res = await t.request('POST', '/api/v1/tokens', { token, body });
  return { res, body: await res.json() };
}

const list = async (token = alice) => (await t.request('GET', '/api/v1/tokens', { token })).json();

describe('POST /tokens', () => {
  it('answers 201 with the secret once, and the secret works as a bearer token and as apikey', async () => {
    const { res, body } = await create({ label: '  deploy script ' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      id: expect.any(Number),
      label: 'deploy script',
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: null,
      current: false,
      scope: {},
      token: expect.stringMatching(TOKEN_SHAPE),
    });

    const ips = await t.request('GET', '/api/v1/ips', { token: body.token });
    expect(ips.status).toBe(200);
    const viaKey = await t.request('GET', `/api/v1/ips?apikey=${body.token}`, { token: null });
    expect(viaKey.status).toBe(200);

    // Seen through itself, the new token is the current one; the creating token is not.
    const mine = await list(body.token);
    expect(mine.find((x: { id: number }) => x.id === body.id)).toMatchObject({ current: true, last_used_at: expect.any(String) });
    expect(mine.filter((x: { current: boolean }) => x.current)).toHaveLength(1);
  });

  it('sets expires_at from expires_in_days, and an expired token gets 401', async () => {
    const before = Date.now();
    const { res, body } = await create({ label: 'ci', expires_in_days: 30 });
    expect(res.status).toBe(201);
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);

    // Move the expiry into the past through the store: the token stops working at once.
    const user = await t.services.accounts.userByName('alice');
    const { row, token } = await t.services.accounts.createToken(user.id, 'short', new Date(Date.now() - 1000).toISOString());
    const res2 = await t.request('GET', '/api/v1/ips', { token });
    expect(res2.status).toBe(401);
    expect(res2.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // It is still listed, so its owner can see why it stopped and remove it.
    expect((await list()).map((x: { id: number }) => x.id)).toContain(row.id);
  });

  it.each([
    [{}, 'label', 'is required'],
    [{ label: '   ' }, 'label', 'must not be empty'],
    [{ label: 'x'.repeat(101) }, 'label', 'must be at most 100 characters'],
    [{ label: 7 }, 'label', 'must be a short text naming where the token is used'],
    [{ label: 'a\u0000b' }, 'label', CONTROL_MESSAGE],
    [{ label: 'line\nbreak' }, 'label', CONTROL_MESSAGE],
    [{ label: 'a', expires_in_days: 0 }, 'expires_in_days', 'must be between 1 and 3650 days'],
    [{ label: 'a', expires_in_days: 3651 }, 'expires_in_days', 'must be between 1 and 3650 days'],
    [{ label: 'a', expires_in_days: 1.5 }, 'expires_in_days', 'must be a whole number of days'],
    [{ label: 'a', expires_in_days: '30' }, 'expires_in_days', 'must be a whole number of days'],
    [{ label: 'a', token: 'zd_mine' }, 'token', 'is not a known field'],
    [{ label: 'a', created_at: '2020-01-01T00:00:00Z' }, 'created_at', 'is read-only'],
    [{ label: 'a', scope: { zones: ['not a zone'] } }, 'scope.zones.0', 'label "not a zone" may contain only letters, digits and hyphens, and must not start or end with a hyphen'],
    [{ label: 'a', scope: { types: ['A', 'NOPE'] } }, 'scope.types.1', expect.stringMatching(/^must be one of A, AAAA/)],
    [{ label: 'a', scope: { allowed_ips: ['10.0.0.1/8'] } }, 'scope.allowed_ips.0', 'has host bits set; the network is 10.0.0.0/8'],
    [{ label: 'a', scope: { names: ['a.*.b'] } }, 'scope.names.0', '"*" is allowed only as the whole first or last label'],
    [{ label: 'a', scope: { zones: 'example.com' } }, 'scope.zones', 'must be a list of strings'],
    [{ label: 'a', scope: { read_only: 'yes' } }, 'scope.read_only', 'must be true or false'],
    [{ label: 'a', scope: { everything: true } }, 'scope.everything', 'is not a known field'],
  ])('answers 400 naming the field for %j', async (input, field, message) => {
    const before = (await list()).length;
    const { res, body } = await create(input);
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ status: 400, code: 'invalid_field', fields: { [field]: message } });
    expect((await list()).length).toBe(before);
  });

  it('needs a live token', async () => {
    const res = await t.request('POST', '/api/v1/tokens', { token: null, body: { label: 'x' } });
    expect(res.status).toBe(401);
  });
});

describe('scoped tokens', () => {
  it('stores the scope normalized and shows it in the answer and the list', async () => {
    const { res, body } = await create({ label: 'acme', scope: { zones: ['Example.COM.'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['txt'], allowed_ips: ['2001:DB8::/32'] } });
    expect(res.status).toBe(201);
    const scope = { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'], allowed_ips: ['2001:db8::/32'] };
    expect(body.scope).toEqual(scope);
    expect((await list()).find((x: { id: number }) => x.id === body.id).scope).toEqual(scope);
  });
});

describe('GET /tokens', () => {
  it("lists the caller's own tokens with the current one marked, and never a secret or hash", async () => {
    const a = await create({ label: 'one' });
    await create({ label: 'bob only' }, bob);
    const res = await t.request('GET', '/api/v1/tokens');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    const text = await res.text();
    expect(text).not.toMatch(TOKEN_SHAPE);
    expect(text).not.toContain(a.body.token);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    const rows = JSON.parse(text);
    expect(rows.map((r: { label: string; current: boolean }) => [r.label, r.current])).toEqual([
      ['test', true],
      ['one', false],
    ]);
    expect(Object.keys(rows[0]).sort()).toEqual(['created_at', 'current', 'expires_at', 'id', 'label', 'last_used_at', 'scope']);
  });

  it('pages like the other lists', async () => {
    for (let i = 0; i < 4; i++) await create({ label: `t${i}` });
    const res = await t.request('GET', '/api/v1/tokens?per_page=2&page=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect((await res.json()).map((r: { label: string }) => r.label)).toEqual(['t1', 't2']);
    const bad = await t.request('GET', '/api/v1/tokens?per_page=501');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('per_page');
  });
});

describe('GET /tokens?kind=api&order=newest', () => {
  it("leaves out the dashboard sessions' tokens and puts the newest first; the default stays every token, oldest first", async () => {
    await dashboardSignIn(t, 'alice', 'password123');
    await create({ label: 'first' });
    await create({ label: 'second' });
    const api = await (await t.request('GET', '/api/v1/tokens?kind=api&order=newest', { token: alice })).json();
    expect(api.map((x: { label: string }) => x.label)).toEqual(['second', 'first', 'test']);
    const all = await (await t.request('GET', '/api/v1/tokens', { token: alice })).json();
    expect(all.map((x: { label: string }) => x.label)).toEqual(['test', 'dashboard session', 'first', 'second']);
    const bad = await t.request('GET', '/api/v1/tokens?kind=sessions', { token: alice });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('kind');
  });
});

describe('DELETE /tokens/:id', () => {
  it('revokes the token, answers with it, and the revoked token then gets 401', async () => {
    const { body: made } = await create({ label: 'doomed', expires_in_days: 7 });
    const res = await t.request('DELETE', `/api/v1/tokens/${made.id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ id: made.id, label: 'doomed', created_at: made.created_at, last_used_at: null, expires_at: made.expires_at, current: false, scope: {} });
    const after = await t.request('GET', '/api/v1/ips', { token: made.token });
    expect(after.status).toBe(401);
    expect((await list()).map((x: { id: number }) => x.id)).not.toContain(made.id);
    expect((await t.request('DELETE', `/api/v1/tokens/${made.id}`)).status).toBe(404);
  });

  it("answers 404 for another user's token, exactly as for a missing one, and leaves it working", async () => {
    const { body: bobs } = await create({ label: 'bob ci' }, bob);
    for (const id of [String(bobs.id), '999999', 'abc']) {
      const res = await t.request('DELETE', `/api/v1/tokens/${id}`);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ status: 404, code: 'not_found', message: `no token with id ${id}` });
    }
    expect((await t.request('GET', '/api/v1/ips', { token: bobs.token })).status).toBe(200);
  });

  it('lets a token revoke itself; it is dead for the next request', async () => {
    const { body: made } = await create({ label: 'self' });
    const res = await t.request('DELETE', `/api/v1/tokens/${made.id}`, { token: made.token });
    expect(res.status).toBe(200);
    expect((await res.json()).current).toBe(true);
    expect((await t.request('GET', '/api/v1/tokens', { token: made.token })).status).toBe(401);
  });
});

describe('hostile input', () => {
  it('random bodies and ids only ever get 2xx or 4xx with the error body, and revoke nothing of anyone else', async () => {
    const { body: bobs } = await create({ label: 'bob keeps this' }, bob);
    const label = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', 'a'.repeat(101), '\u0000', '💥'));
    const days = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.constantFrom(1, 3650, 3651, 1e300));
    const body = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ label, expires_in_days: days }, { requiredKeys: [] }));
    // Never the caller's own token: revoking it would turn the rest of the run into 401s that prove nothing.
    const callerId = (await list()).find((x: { current: boolean }) => x.current).id as number;
    const ids = fc
      .nat()
      .filter((n) => n !== callerId)
      .map(String);
    const id = fc.oneof(ids, fc.string(), fc.constantFrom(String(bobs.id), '-1', '1e3', '99999999999999999999', '%00')).filter((raw) => !/^[0-9]+$/.test(raw) || Number(raw) !== callerId);
    await fc.assert(
      fc.asyncProperty(body, id, async (b, raw) => {
        for (const res of [await t.request('POST', '/api/v1/tokens', { body: b }), await t.request('DELETE', `/api/v1/tokens/${encodeURIComponent(raw)}`)]) {
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect((await res.json()).error).toMatchObject({ status: res.status, code: expect.any(String), message: expect.any(String) });
        }
      }),
      { numRuns: 100 },
    );
    expect((await t.request('GET', '/api/v1/ips', { token: bobs.token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/ips')).status).toBe(200);
  });
});
