/**
 * A password someone else chose is changed before the dashboard does anything: the BFF says so at
 * sign-in and refuses every other call with 403 `password_change_required` until it is done; the
 * API and its tokens go on as before; a password the user chose clears it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dashboardSignIn } from '../testing/dashboard-client';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const CLI = { username: '', credential: 'cli' };

describe('a password someone else chose', () => {
  it('is changed first: sign-in says so, every other dashboard call answers 403, the API does not, and the change lets the user in', async () => {
    const { password } = await t.services.users.create(CLI, 'newbie', { mustChange: true });
    const token = (await t.services.accounts.createToken((await t.services.accounts.userByName('newbie')).id, 'script')).token;
    const browser = await dashboardSignIn(t, 'newbie', password);
    expect(browser.status).toBe(200);
    expect(await (await browser.send('GET', '/bff/session')).json()).toMatchObject({ username: 'newbie', password_change_required: true });

    for (const [method, path, body] of [
      ['GET', '/bff/api/domains'],
      ['POST', '/bff/api/domains', { name: 'newbie.test' }],
      ['GET', '/bff/api/tokens'],
      ['GET', '/bff/ip-usage'],
    ] as const) {
      const res = await browser.send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).error.code).toBe('password_change_required');
    }
    expect((await t.request('GET', '/api/v1/domains', { token })).status).toBe(200);
    expect((await browser.send('GET', '/bff/api/account')).status).toBe(200);

    expect((await browser.send('PUT', '/bff/api/account/password', { current_password: password, new_password: 'one of my own' })).status).toBe(204);
    expect(await (await browser.send('GET', '/bff/session')).json()).toMatchObject({ password_change_required: false });
    expect((await browser.send('GET', '/bff/api/domains')).status).toBe(200);
    expect((await dashboardSignIn(t, 'newbie', 'one of my own')).status).toBe(200);
  });

  it('comes back with an administrator reset that asks for it, and not with a password the user was given to keep', async () => {
    await t.services.users.create(CLI, 'keeper', { password: 'chosen by keeper' });
    const own = await dashboardSignIn(t, 'keeper', 'chosen by keeper');
    expect(await (await own.send('GET', '/bff/session')).json()).toMatchObject({ password_change_required: false });
    expect((await own.send('GET', '/bff/api/domains')).status).toBe(200);

    const { password } = await t.services.users.resetPassword(CLI, 'keeper', undefined, true);
    const reset = await dashboardSignIn(t, 'keeper', password);
    expect((await reset.send('GET', '/bff/api/domains')).status).toBe(403);
  });
});
