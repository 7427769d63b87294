/**
 * Acts that add a way into an account, or act on another user, need a sign-in within the last
 * 10 minutes: a dashboard left open (or a stolen cookie) adds no passkey, turns on no TOTP that
 * would lock the owner out, and mints no administrator. A password reset ends every session of
 * the user, a change the others; a factor reset takes passkeys as well as TOTP, and the audit log
 * names what went. Driven through the BFF as the dashboard sends it, passkeys made by a software
 * authenticator. Runs on SQLite and PostgreSQL.
 */
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardSignIn, type DashboardBrowser } from '../../testing/dashboard-client';
import { SoftAuthenticator } from '../../testing/soft-authenticator';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
afterEach(() => t?.close());

const ORIGIN = 'http://localhost';
const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/** Moves every session of `username` to a sign-in 11 minutes ago, as if the browser had been left open. */
async function staleSessions(username: string): Promise<void> {
  const user = (await t.services.store.users.byUsername(username))!;
  for (const s of await t.services.store.sessions.byUser(user.id)) await t.forge.sessions.authenticated(s.id_hash, new Date(Date.now() - 11 * 60_000).toISOString());
}

async function expectReauthentication(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBe(403);
  expect((await res.json()).error.code, what).toBe('reauthentication_required');
}

/** Registers a passkey through the BFF as the Account page does. */
async function addPasskey(b: DashboardBrowser, key: SoftAuthenticator, name: string): Promise<Response> {
  const options = await b.send('POST', '/bff/passkeys/registration-options');
  if (options.status !== 200) return options;
  return b.send('POST', '/bff/passkeys', { name, response: key.register(await options.json()) });
}

/** A passkey sign-in as the sign-in page does it; the username it signed in, or the error code. */
async function passkeySignIn(key: SoftAuthenticator): Promise<string> {
  const headers = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
  const options = await (await t.request('POST', '/bff/passkey-sign-in/options', { token: null, headers })).json();
  const res = await t.request('POST', '/bff/passkey-sign-in', { token: null, headers, body: { response: key.authenticate(options) } });
  const body = await res.json();
  return res.ok ? body.username : body.error.code;
}

async function makeAdmin(name: string): Promise<string> {
  const token = await t.user(name);
  await t.forge.users.update((await t.services.store.users.byUsername(name))!.id, { is_admin: true });
  return token;
}

describe('a sign-in within the last 10 minutes', () => {
  it('is needed to add a passkey or turn two-factor sign-in on; the password again opens both', async () => {
    t = await createTestApp();
    await t.user('alice');
    const b = await dashboardSignIn(t, 'alice', 'password123');
    const key = new SoftAuthenticator(ORIGIN);
    // Options fetched while fresh, the passkey sent once the sign-in is old: refused too.
    const fresh = await (await b.send('POST', '/bff/passkeys/registration-options')).json();
    await staleSessions('alice');
    await expectReauthentication(await b.send('POST', '/bff/passkeys', { name: 'Mallory', response: key.register(fresh) }), 'register');
    await expectReauthentication(await b.send('POST', '/bff/passkeys/registration-options'), 'options');
    await expectReauthentication(await b.send('POST', '/bff/api/account/totp'), 'totp start');
    await expectReauthentication(await b.send('POST', '/bff/api/account/totp/confirm', { code: '123456' }), 'totp confirm');
    expect(await (await b.send('GET', '/bff/api/account/passkeys')).json()).toEqual([]);
    expect(await (await b.send('GET', '/bff/api/account/second-factors')).json()).toEqual({ totp: 'off', recovery_codes_left: 0 });
    expect(await passkeySignIn(key)).toBe('invalid_passkey');

    expect((await b.send('POST', '/bff/reauthenticate', { password: 'password123' })).status).toBe(204);
    expect((await addPasskey(b, key, 'Laptop')).status).toBe(201);
    expect(await passkeySignIn(key)).toBe('alice');
    const { secret } = await (await b.send('POST', '/bff/api/account/totp')).json();
    expect((await b.send('POST', '/bff/api/account/totp/confirm', { code: codeOf(secret) })).status).toBe(200);
    await staleSessions('alice');
    await expectReauthentication(await b.send('POST', '/bff/api/account/recovery-codes'), 'recovery codes');
  });

  it("is needed for every administrator's act on a user; an API token is not asked", async () => {
    t = await createTestApp({ OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' });
    const rootToken = await makeAdmin('root');
    await t.user('bob');
    const admin = await dashboardSignIn(t, 'root', 'password123');
    await staleSessions('root');
    const acts: Array<[string, string, unknown?]> = [
      ['POST', '/bff/api/users', { username: 'eve', is_admin: true }],
      ['PATCH', '/bff/api/users/bob', { is_admin: true }],
      ['PATCH', '/bff/api/users/bob', { disabled: true }],
      ['POST', '/bff/api/users/bob/password'],
      ['DELETE', '/bff/api/users/bob/second-factors'],
      ['PUT', '/bff/api/users/bob/email', { email: 'mallory@example.com' }],
      ['PUT', '/bff/api/settings/sign-in', { password: false }],
    ];
    for (const [method, path, body] of acts) await expectReauthentication(await admin.send(method, path, body), `${method} ${path}`);
    // Nothing changed: no eve, bob as he was, his password still his, password sign-in still on.
    expect(await t.services.store.users.byUsername('eve')).toBeUndefined();
    expect(await t.services.store.users.byUsername('bob')).toMatchObject({ is_admin: false, disabled_at: null });
    expect((await dashboardSignIn(t, 'bob', 'password123')).status).toBe(200);
    expect(await t.services.store.identities.emailOf((await t.services.store.users.byUsername('bob'))!.id)).toBeNull();
    expect((await admin.send('GET', '/bff/api/users')).status).toBe(200);

    expect((await admin.send('POST', '/bff/reauthenticate', { password: 'password123' })).status).toBe(204);
    const created = await admin.send('POST', '/bff/api/users', { username: 'eve' });
    expect(created.status).toBe(201);
    expect((await admin.send('PATCH', '/bff/api/users/bob', { is_admin: true })).status).toBe(200);
    expect((await admin.send('POST', '/bff/api/users/bob/password')).status).toBe(200);
    // An administrator's API token is a credential of its own, made by someone who signed in.
    expect((await t.request('PATCH', '/api/v1/users/bob', { token: rootToken, body: { disabled: true } })).status).toBe(200);
  });
});

describe('what a password change, a reset and a factor reset end', () => {
  it("a change ends the user's other sessions; an administrator's reset ends them all, with their tokens", async () => {
    t = await createTestApp();
    const rootToken = await makeAdmin('root');
    await t.user('bob');
    const here = await dashboardSignIn(t, 'bob', 'password123');
    const there = await dashboardSignIn(t, 'bob', 'password123');
    expect((await here.send('PUT', '/bff/api/account/password', { current_password: 'password123', new_password: 'a-new-password' })).status).toBe(204);
    expect((await there.send('GET', '/bff/session')).status).toBe(401);
    expect((await here.send('GET', '/bff/session')).status).toBe(200);

    const later = await dashboardSignIn(t, 'bob', 'a-new-password');
    const bob = (await t.services.store.users.byUsername('bob'))!;
    expect(await t.services.store.sessions.byUser(bob.id)).toHaveLength(2);
    const reset = await t.request('POST', '/api/v1/users/bob/password', { token: rootToken });
    expect(reset.status).toBe(200);
    for (const b of [here, later]) expect((await b.send('GET', '/bff/session')).status).toBe(401);
    expect(await t.services.store.sessions.byUser(bob.id)).toEqual([]);
    // The sessions' tokens are gone too; bob's own API token (made by the test) is not a session's.
    expect((await t.services.store.tokens.listByUser(bob.id)).map((k) => k.label)).toEqual(['test']);
    expect((await dashboardSignIn(t, 'bob', (await reset.json()).password)).status).toBe(200);
    const events = await t.services.store.audit.page({ all: true, kind: 'password-reset' }, { offset: 0, limit: 5 });
    expect(events.rows.map((e) => [e.actor_username, e.subject_username, e.detail])).toEqual([['root', 'bob', { sessions_ended: 2 }]]);
  });

  it('a factor reset takes every passkey and the TOTP factor, ends the sessions, and the audit log names them', async () => {
    t = await createTestApp();
    const rootToken = await makeAdmin('root');
    await t.user('bob');
    const b = await dashboardSignIn(t, 'bob', 'password123');
    const laptop = new SoftAuthenticator(ORIGIN);
    const phone = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(b, laptop, 'Laptop')).status).toBe(201);
    expect((await addPasskey(b, phone, 'Phone')).status).toBe(201);
    const { secret } = await (await b.send('POST', '/bff/api/account/totp')).json();
    expect((await b.send('POST', '/bff/api/account/totp/confirm', { code: codeOf(secret) })).status).toBe(200);
    expect(await passkeySignIn(laptop)).toBe('bob');

    expect((await t.request('DELETE', '/api/v1/users/bob/second-factors', { token: rootToken })).status).toBe(204);
    expect(await passkeySignIn(laptop)).toBe('invalid_passkey');
    expect(await passkeySignIn(phone)).toBe('invalid_passkey');
    expect((await b.send('GET', '/bff/session')).status).toBe(401);
    const again = await dashboardSignIn(t, 'bob', 'password123');
    expect(again.status).toBe(200);
    expect(await (await again.send('GET', '/bff/api/account/passkeys')).json()).toEqual([]);
    expect(await (await again.send('GET', '/bff/api/account/second-factors')).json()).toEqual({ totp: 'off', recovery_codes_left: 0 });
    const events = await t.services.store.audit.page({ all: true, kind: 'second-factor-reset' }, { offset: 0, limit: 5 });
    expect(events.rows.map((e) => [e.actor_username, e.subject_username, e.detail])).toEqual([['root', 'bob', { totp: true, passkeys: ['Laptop', 'Phone'], sessions_ended: 2 }]]);
  });
});
