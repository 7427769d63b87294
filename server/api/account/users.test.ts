/**
 * User administration: only administrators; a one-time password that works; disabling
 * stops sign-in, sessions, tokens and TSIG keys, enabling brings them back; an administrator cannot
 * lock themselves out; password resets; every refusal changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dashboardSignIn } from '../../testing/dashboard-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let root: string;
let alice: string;
beforeEach(async () => {
  t = await createTestApp();
  root = await t.user('root');
  alice = await t.user('alice');
  await t.forge.users.update((await t.services.accounts.userByName('root')).id, { is_admin: true });
});
afterEach(() => t.close());

const signsIn = async (username: string, password: string) => (await t.services.accounts.checkPassword(username, password)) !== null;
const userNames = async () => (await t.request('GET', '/api/v1/users', { token: root }).then((r) => r.json())).map((u: { username: string }) => u.username);

describe('who may manage users', () => {
  it('answers 403 to a user who is not an administrator, on every endpoint, and changes nothing', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/users'],
      ['POST', '/api/v1/users', { username: 'mallory', is_admin: true }],
      ['PATCH', '/api/v1/users/root', { disabled: true }],
      ['PATCH', '/api/v1/users/alice', { is_admin: true }],
      ['POST', '/api/v1/users/root/password'],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token: alice, body });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toEqual({ status: 403, code: 'forbidden', message: 'only an administrator may manage users' });
    }
    expect(await userNames()).toEqual(['alice', 'root']);
    expect((await t.request('GET', '/api/v1/account', { token: alice }).then((r) => r.json())).is_admin).toBe(false);
    expect((await t.request('GET', '/api/v1/users', { token: root })).status).toBe(200);
    expect(await signsIn('root', 'password123')).toBe(true);
  });

  it("refuses an administrator's token with a scope every change (403), but lets it list", async () => {
    const { token } = await t.services.accounts.createToken((await t.services.accounts.userByName('root')).id, 'zones', null, { zones: ['example.com'] });
    expect((await t.request('GET', '/api/v1/users', { token })).status).toBe(200);
    const res = await t.request('POST', '/api/v1/users', { token, body: { username: 'sneaky', is_admin: true } });
    expect(res.status).toBe(403);
    expect((await t.request('POST', '/api/v1/users/alice/password', { token })).status).toBe(403);
    expect(await userNames()).toEqual(['alice', 'root']);
    expect(await signsIn('alice', 'password123')).toBe(true);
  });
});

describe('GET /users', () => {
  it('lists users by name with their flags, searches, and pages', async () => {
    for (const name of ['carol', 'dave', 'caroline']) await t.user(name);
    const res = await t.request('GET', '/api/v1/users', { token: root });
    expect(res.status).toBe(200);
    const all = await res.json();
    expect(all.map((u: { username: string }) => u.username)).toEqual(['alice', 'carol', 'caroline', 'dave', 'root']);
    expect(all.at(-1)).toEqual({ username: 'root', is_admin: true, disabled: false, created_at: expect.any(String) });

    const found = await t.request('GET', '/api/v1/users?search=CAROL', { token: root }).then((r) => r.json());
    expect(found.map((u: { username: string }) => u.username)).toEqual(['carol', 'caroline']);
    const page = await t.request('GET', '/api/v1/users?per_page=2&page=2', { token: root });
    expect(page.headers.get('x-total-count')).toBe('5');
    expect((await page.json()).map((u: { username: string }) => u.username)).toEqual(['caroline', 'dave']);
    const long = await t.request('GET', `/api/v1/users?search=${'a'.repeat(65)}`, { token: root });
    expect(long.status).toBe(400);
    expect((await long.json()).error.fields).toEqual({ search: 'must be at most 64 characters' });
  });
});

describe('POST /users', () => {
  it('creates a user with a one-time password, shown once, with which they sign in', async () => {
    const res = await t.request('POST', '/api/v1/users', { token: root, body: { username: 'Erin' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({ username: 'erin', is_admin: false, disabled: false, created_at: expect.any(String), password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/) });
    expect((await dashboardSignIn(t, 'erin', body.password)).status).toBe(200);
    expect(JSON.stringify(await t.request('GET', '/api/v1/users', { token: root }).then((r) => r.json()))).not.toContain(body.password);

    const admin = await t.request('POST', '/api/v1/users', { token: root, body: { username: 'frank', is_admin: true } }).then((r) => r.json());
    expect(admin.is_admin).toBe(true);
  });

  it('names the bad field (400), answers 409 for a taken name, and creates nothing', async () => {
    const cases: Array<[unknown, number, Record<string, string>]> = [
      [{ username: '-bad' }, 400, { username: 'must be 1–64 letters, digits, dots, hyphens or underscores, starting with a letter or digit' }],
      [{ username: 'x'.repeat(65) }, 400, { username: 'must be at most 64 characters' }],
      [{}, 400, { username: 'is required' }],
      [{ username: 'gina', is_admin: 'yes' }, 400, { is_admin: 'must be true or false' }],
      [{ username: 'gina', password: 'chosen-by-admin' }, 400, { password: 'is not a known field' }],
      [{ username: 'ALICE' }, 409, { username: 'is already taken' }],
    ];
    for (const [body, status, fields] of cases) {
      const res = await t.request('POST', '/api/v1/users', { token: root, body });
      expect(res.status).toBe(status);
      expect((await res.json()).error.fields).toEqual(fields);
    }
    expect(await userNames()).toEqual(['alice', 'root']);
    expect(await signsIn('alice', 'password123')).toBe(true);
  });
});

describe('PATCH /users/:username', () => {
  it("disabling ends the user's sessions and stops their tokens and TSIG keys; enabling brings the tokens and keys back", async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123');
    expect((await t.request('POST', '/api/v1/tsig-keys', { token: alice, body: { name: 'alice-key' } })).status).toBe(201);
    const keyNames = async () => (await t.services.store.tsigKeys.all()).map((k) => k.name);
    const before = await t.services.store.tsigKeys.version();
    expect(await keyNames()).toEqual(['alice-key']);

    const res = await t.request('PATCH', '/api/v1/users/ALICE', { token: root, body: { disabled: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ username: 'alice', is_admin: false, disabled: true, created_at: expect.any(String) });
    expect((await browser.send('GET', '/bff/session')).status).toBe(401);
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(401);
    expect((await dashboardSignIn(t, 'alice', 'password123')).status).toBe(401);
    // The DNS server's keyring reads the keys again when the version changes, and then finds no key of hers.
    const disabled = await t.services.store.tsigKeys.version();
    expect(disabled).not.toBe(before);
    expect(await keyNames()).toEqual([]);

    const enabled = await t.request('PATCH', '/api/v1/users/alice', { token: root, body: { disabled: false } });
    expect((await enabled.json()).disabled).toBe(false);
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(200);
    expect(await keyNames()).toEqual(['alice-key']);
    expect(await t.services.store.tsigKeys.version()).not.toBe(disabled);
  });

  it('grants and revokes admin rights', async () => {
    const granted = await t.request('PATCH', '/api/v1/users/alice', { token: root, body: { is_admin: true } });
    expect((await granted.json()).is_admin).toBe(true);
    expect((await t.request('GET', '/api/v1/users', { token: alice })).status).toBe(200);
    // Now alice may take root's rights away (but not her own).
    expect((await t.request('PATCH', '/api/v1/users/root', { token: alice, body: { is_admin: false } })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/users', { token: root })).status).toBe(403);
  });

  it('refuses an administrator disabling or un-admining themselves (409), and changes nothing', async () => {
    for (const body of [{ disabled: true }, { is_admin: false }, { is_admin: false, disabled: true }]) {
      const res = await t.request('PATCH', '/api/v1/users/root', { token: root, body });
      expect(res.status).toBe(409);
      expect((await res.json()).error.code).toBe('conflict');
    }
    expect(await t.request('GET', '/api/v1/account', { token: root }).then((r) => r.json())).toMatchObject({ is_admin: true });
    expect((await t.request('GET', '/api/v1/users', { token: root })).status).toBe(200);
    // Settings that change nothing are fine.
    expect((await t.request('PATCH', '/api/v1/users/root', { token: root, body: { is_admin: true, disabled: false } })).status).toBe(200);
  });

  it('answers 404 for an unknown user and 400 naming a bad field', async () => {
    for (const name of ['nobody', 'x'.repeat(300), '%20']) {
      expect((await t.request('PATCH', `/api/v1/users/${name}`, { token: root, body: { disabled: true } })).status).toBe(404);
    }
    const bad = await t.request('PATCH', '/api/v1/users/alice', { token: root, body: { disabled: 'yes', username: 'eve' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual({ disabled: 'must be true or false', username: 'is not a known field' });
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(200);
  });
});

describe('POST /users/:username/password', () => {
  it('sets a new one-time password, shown once; the old one stops working and their sessions end', async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123');
    const res = await t.request('POST', '/api/v1/users/alice/password', { token: root });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { password } = await res.json();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await signsIn('alice', password)).toBe(true);
    expect(await signsIn('alice', 'password123')).toBe(false);
    expect((await browser.send('GET', '/bff/session')).status).toBe(401);
    // API tokens are not sessions: they keep working.
    expect((await t.request('GET', '/api/v1/ips', { token: alice })).status).toBe(200);
    expect((await t.request('POST', '/api/v1/users/nobody/password', { token: root })).status).toBe(404);
  });
});
