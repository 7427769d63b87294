/**
 * The self-service account: who am I, changing my password with the current one (my
 * other dashboard sessions end, this credential keeps working), seeing and ending my sessions,
 * and what a token with a scope may not do. Sessions are real ones, signed in through the BFF.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const signsIn = async (username: string, password: string) => (await t.services.accounts.checkPassword(username, password)) !== null;
const session = (b: { send(m: string, p: string): Promise<Response> }) => b.send('GET', '/bff/session').then((r) => r.status);

describe('GET /account', () => {
  it('answers who the token belongs to', async () => {
    const res = await t.request('GET', '/api/v1/account', { token: alice });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ username: 'alice', is_admin: false, created_at: expect.any(String) });
    expect((await t.request('GET', '/api/v1/account', { token: null })).status).toBe(401);
  });
});

describe('PUT /account/password', () => {
  it('changes the password; the other dashboard sessions end, this one and the API tokens keep working', async () => {
    const here = await dashboardSignIn(t, 'alice', 'password123');
    const there = await dashboardSignIn(t, 'alice', 'password123');
    const bobs = await dashboardSignIn(t, 'bob', 'password123');
    expect([here.status, there.status, bobs.status]).toEqual([200, 200, 200]);

    const res = await here.send('PUT', '/bff/api/account/password', { current_password: 'password123', new_password: 'a new passphrase' });
    expect(res.status).toBe(204);
    expect(await signsIn('alice', 'a new passphrase')).toBe(true);
    expect(await signsIn('alice', 'password123')).toBe(false);

    expect(await session(here)).toBe(200);
    expect(await session(there)).toBe(401);
    expect(await session(bobs)).toBe(200);
    expect((await here.send('GET', '/bff/api/account/sessions').then((r) => r.json())).length).toBe(1);
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(200);
  });

  it('changed with an API token, ends every dashboard session and keeps the token working', async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123');
    expect((await t.request('PUT', '/api/v1/account/password', { token: alice, body: { current_password: 'password123', new_password: 'another one!' } })).status).toBe(204);
    expect(await session(browser)).toBe(401);
    expect((await t.request('GET', '/api/v1/account', { token: alice })).status).toBe(200);
  });

  it('refuses a wrong current password with 400 naming the field, and changes nothing', async () => {
    const other = await dashboardSignIn(t, 'alice', 'password123');
    const res = await t.request('PUT', '/api/v1/account/password', { token: alice, body: { current_password: 'not it at all', new_password: 'a new passphrase' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual({ current_password: 'is not your current password' });
    expect(await signsIn('alice', 'password123')).toBe(true);
    expect(await signsIn('alice', 'a new passphrase')).toBe(false);
    expect(await session(other)).toBe(200);
  });

  it('names each bad field: a short or long new password, a missing one, an unknown field', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ current_password: 'password123', new_password: 'short' }, { new_password: 'must be at least 8 characters' }],
      [{ current_password: 'password123', new_password: 'x'.repeat(1025) }, { new_password: 'must be at most 1024 characters' }],
      [{ current_password: 'password123' }, { new_password: 'is required' }],
      [{ current_password: 'password123', new_password: 'long enough', username: 'root' }, { username: 'is not a known field' }],
      [{ current_password: 5, new_password: 'long enough' }, { current_password: 'must be a string' }],
    ];
    for (const [body, fields] of cases) {
      const res = await t.request('PUT', '/api/v1/account/password', { token: alice, body });
      expect(res.status).toBe(400);
      expect((await res.json()).error.fields).toEqual(fields);
    }
    expect(await signsIn('alice', 'password123')).toBe(true);
  });
});

describe('GET /account/sessions', () => {
  it("lists the user's own dashboard sessions, newest first, marking the one asking; paginated", async () => {
    const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const first = await dashboardSignIn(t, 'alice', 'password123', { address: '198.51.100.20', userAgent: phone });
    // A User-Agent longer than any browser's is kept bounded.
    const second = await dashboardSignIn(t, 'alice', 'password123', { address: '2001:db8::7', userAgent: `curl/8.11 ${'x'.repeat(1000)}` });
    await dashboardSignIn(t, 'bob', 'password123');

    const res = await second.send('GET', '/bff/api/account/sessions');
    expect(res.status).toBe(200);
    const list = await res.json();
    const times = { id: expect.any(Number), created_at: expect.any(String), last_seen_at: expect.any(String), expires_at: expect.any(String) };
    // Where each signed in from: the browser and the address, so that a user tells their devices apart.
    expect(list).toEqual([
      { ...times, current: true, user_agent: `curl/8.11 ${'x'.repeat(256 - 'curl/8.11 '.length)}`, address: '2001:db8::7' },
      { ...times, current: false, user_agent: phone, address: '198.51.100.20' },
    ]);
    expect((await first.send('GET', '/bff/api/account/sessions').then((r) => r.json())).map((s: { current: boolean }) => s.current)).toEqual([false, true]);

    // Through an API token no session is the current one.
    const viaToken = await t.request('GET', '/api/v1/account/sessions?per_page=1', { token: alice });
    expect(viaToken.headers.get('x-total-count')).toBe('2');
    expect(viaToken.headers.get('link')).toContain('rel="next"');
    expect(await viaToken.json()).toEqual([{ ...list[0], current: false, last_seen_at: expect.any(String) }]);
    expect((await t.request('GET', '/api/v1/account/sessions?per_page=0', { token: alice })).status).toBe(400);
  });
});

describe('DELETE /account/sessions/:id', () => {
  it('ends that session (its browser is signed out); the others go on', async () => {
    const phone = await dashboardSignIn(t, 'alice', 'password123');
    const laptop = await dashboardSignIn(t, 'alice', 'password123');
    const [, phoneSession] = await laptop.send('GET', '/bff/api/account/sessions').then((r) => r.json());
    const res = await laptop.send('DELETE', `/bff/api/account/sessions/${phoneSession.id}`);
    expect(res.status).toBe(204);
    expect(await session(phone)).toBe(401);
    expect(await session(laptop)).toBe(200);
    // Its token is gone too, not only the session row.
    expect((await t.services.accounts.listTokens((await t.services.accounts.userByName('alice')).id)).map((k) => k.id)).not.toContain(phoneSession.id);
  });

  it("answers 404 for another user's session, an unknown id or a non-number, and ends nothing", async () => {
    const bobs = await dashboardSignIn(t, 'bob', 'password123');
    const [bobSession] = await t.request('GET', '/api/v1/account/sessions', { token: bob }).then((r) => r.json());
    for (const id of [String(bobSession.id), '999999', 'abc']) {
      const res = await t.request('DELETE', `/api/v1/account/sessions/${id}`, { token: alice });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    expect(await session(bobs)).toBe(200);
  });
});

describe('a token with a scope', () => {
  it('reads the account and its sessions, but changes neither the password nor a session (403)', async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123');
    const user = await t.services.accounts.userByName('alice');
    for (const scope of [{ zones: ['example.com'] }, { read_only: true }]) {
      const { token } = await t.services.accounts.createToken(user.id, 'scoped', null, scope);
      expect((await t.request('GET', '/api/v1/account', { token })).status).toBe(200);
      const [s] = await t.request('GET', '/api/v1/account/sessions', { token }).then((r) => r.json());
      const change = await t.request('PUT', '/api/v1/account/password', { token, body: { current_password: 'password123', new_password: 'taken over!' } });
      expect(change.status).toBe(403);
      expect((await t.request('DELETE', `/api/v1/account/sessions/${s.id}`, { token })).status).toBe(403);
    }
    expect(await signsIn('alice', 'password123')).toBe(true);
    expect(await session(browser)).toBe(200);
  });
});

describe('a disabled user', () => {
  it('cannot sign in (the message of a wrong password), and no token of theirs works, on the API or the PowerDNS API, until enabled', async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123');
    const pdns = () => t.request('GET', '/api/v1/servers/localhost/zones', { token: null, headers: { 'x-api-key': alice } });
    expect((await pdns()).status).toBe(200);
    await t.services.users.update({ username: '', credential: 'cli' }, 'alice', { disabled: true });

    const signIn = (username: string, password: string) => t.request('POST', '/bff/sign-in', { token: null, body: { username, password }, headers: { origin: 'http://localhost' } });
    const refused = await signIn('alice', 'password123');
    const wrong = await signIn('bob', 'wrong password');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(await wrong.json());
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await session(browser)).toBe(401);
    const api = await t.request('GET', '/api/v1/ips', { token: alice });
    expect(api.status).toBe(401);
    expect(api.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect((await pdns()).status).toBe(401);
    // Bob is untouched.
    expect((await t.request('GET', '/api/v1/ips', { token: bob })).status).toBe(200);

    await t.services.users.update({ username: '', credential: 'cli' }, 'alice', { disabled: false });
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(200);
    expect((await pdns()).status).toBe(200);
    expect((await dashboardSignIn(t, 'alice', 'password123')).status).toBe(200);
  });
});
