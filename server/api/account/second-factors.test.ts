/**
 * Two-factor sign-in with TOTP (RFC 6238) and recovery codes, through the dashboard's
 * BFF as a browser uses it: enrolment confirmed by a code, sign-in with a code, a code never
 * accepted twice, a recovery code once, a sensitive act asking for the password again after 10
 * minutes, an administrator's reset, and REQUIRE_2FA leading to enrolment first. Runs on SQLite
 * and PostgreSQL.
 */
import Database from 'better-sqlite3';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardSignIn, type DashboardBrowser } from '../../testing/dashboard-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
afterEach(() => t?.close());

/** The code an authenticator app shows `stepsAhead` periods from now. */
const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

async function enrol(b: DashboardBrowser): Promise<{ secret: string; codes: string[] }> {
  const started = await b.send('POST', '/bff/api/account/totp');
  expect(started.status).toBe(200);
  const { secret, otpauth_uri } = await started.json();
  expect(otpauth_uri).toMatch(new RegExp(`^otpauth://totp/zonedeck:alice\\?.*secret=${secret}`));
  const confirmed = await b.send('POST', '/bff/api/account/totp/confirm', { code: codeOf(secret) });
  expect(confirmed.status).toBe(200);
  const { recovery_codes } = await confirmed.json();
  return { secret, codes: recovery_codes };
}

describe('TOTP', () => {
  it('enrols with a confirming code, then signs in only with a fresh code or an unused recovery code', async () => {
    t = await createTestApp();
    await t.user('alice');
    const b = await dashboardSignIn(t, 'alice', 'password123');
    const started = await (await b.send('POST', '/bff/api/account/totp')).json();
    const wrong = await b.send('POST', '/bff/api/account/totp/confirm', { code: '000000' === codeOf(started.secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.fields).toHaveProperty('code');
    expect(await (await b.send('GET', '/bff/api/account/second-factors')).json()).toEqual({ totp: 'pending', recovery_codes_left: 0 });
    // Pending enrolment does not ask for a code yet.
    expect((await dashboardSignIn(t, 'alice', 'password123')).status).toBe(200);

    const { secret, codes } = await enrol(b);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await (await b.send('GET', '/bff/api/account/second-factors')).json()).toEqual({ totp: 'on', recovery_codes_left: 10 });

    const noCode = await dashboardSignIn(t, 'alice', 'password123');
    expect([noCode.status, noCode.error]).toEqual([401, 'second_factor_required']);
    const badCode = await dashboardSignIn(t, 'alice', 'password123', { code: '12345' });
    expect([badCode.status, badCode.error]).toEqual([401, 'invalid_second_factor']);
    // The next step's code (the window is one step either side): accepted once, refused the second time.
    const next = codeOf(secret, 1);
    expect((await dashboardSignIn(t, 'alice', 'password123', { code: next })).status).toBe(200);
    const replay = await dashboardSignIn(t, 'alice', 'password123', { code: next });
    expect([replay.status, replay.error]).toEqual([401, 'invalid_second_factor']);
    // A wrong password with a right code is the generic refusal.
    expect((await dashboardSignIn(t, 'alice', 'wrong-password', { code: codeOf(secret, -1) })).error).toBe('invalid_credentials');

    const recovery = codes[3]!.toUpperCase();
    expect((await dashboardSignIn(t, 'alice', 'password123', { code: recovery })).status).toBe(200);
    expect((await dashboardSignIn(t, 'alice', 'password123', { code: recovery })).error).toBe('invalid_second_factor');
    expect(await (await b.send('GET', '/bff/api/account/second-factors')).json()).toEqual({ totp: 'on', recovery_codes_left: 9 });

    const signIns = await t.services.store.audit.page({ all: true, kind: 'sign-in' }, { offset: 0, limit: 10 });
    expect(signIns.rows.slice(0, 2).map((e) => e.detail.factor)).toEqual(['recovery-code', 'totp']);
    const failed = await t.services.store.audit.page({ all: true, kind: 'sign-in-failed' }, { offset: 0, limit: 10 });
    expect(failed.rows.filter((e) => e.detail.factor === 'totp')).toHaveLength(3);

    if (t.services.store.kind === 'sqlite') {
      // A copy of the database alone does not reveal the secret.
      const raw = new Database(t.config.sqlitePath, { readonly: true });
      const stored = raw.prepare('select secret from totp_factors').get() as { secret: string };
      raw.close();
      expect(stored.secret).not.toContain(secret);
    }
  });

  it('asks for the password again for a token or a factor change after 10 minutes, and an administrator can reset the factor', async () => {
    t = await createTestApp();
    await t.user('alice');
    const b = await dashboardSignIn(t, 'alice', 'password123');
    const { secret } = await enrol(b);
    // Within 10 minutes of the sign-in: no question asked.
    expect((await b.send('POST', '/bff/api/tokens', { label: 'fresh' })).status).toBe(201);
    const [session] = await t.services.store.sessions.byUser((await t.services.store.users.byUsername('alice'))!.id);
    await t.forge.sessions.authenticated(session!.id_hash, new Date(Date.now() - 11 * 60_000).toISOString());
    for (const [method, path, body] of [
      ['POST', '/bff/api/tokens', { label: 'late' }],
      ['POST', '/bff/api/tsig-keys', { name: 'late-key' }],
      ['DELETE', '/bff/api/account/totp', undefined],
    ] as const) {
      const res = await b.send(method, path, body);
      expect(res.status, path).toBe(403);
      expect((await res.json()).error.code).toBe('reauthentication_required');
    }
    expect((await b.send('GET', '/bff/api/tokens')).status).toBe(200);
    expect((await b.send('POST', '/bff/reauthenticate', { password: 'wrong-password', code: codeOf(secret, 1) })).status).toBe(401);
    const needsCode = await b.send('POST', '/bff/reauthenticate', { password: 'password123' });
    expect((await needsCode.json()).error.code).toBe('second_factor_required');
    expect((await b.send('POST', '/bff/reauthenticate', { password: 'password123', code: codeOf(secret, 1) })).status).toBe(204);
    expect((await b.send('POST', '/bff/api/tokens', { label: 'after' })).status).toBe(201);
    // An API token is its own credential: not asked.
    const apiToken = await t.request('POST', '/api/v1/tokens', { body: { label: 'by token' } });
    expect(apiToken.status).toBe(201);

    // A lost phone: an administrator removes the factor; the user signs in with the password alone.
    const adminToken = await t.user('root');
    await t.forge.users.update((await t.services.store.users.byUsername('root'))!.id, { is_admin: true });
    expect((await t.request('DELETE', '/api/v1/users/alice/second-factors', { token: adminToken })).status).toBe(204);
    expect((await dashboardSignIn(t, 'alice', 'password123')).status).toBe(200);
    const reset = await t.services.store.audit.page({ all: true, kind: 'second-factor-reset' }, { offset: 0, limit: 5 });
    expect(reset.rows.map((e) => [e.actor_username, e.subject_username])).toEqual([['root', 'alice']]);
  });
});

describe('the sign-in throttle with a second factor', () => {
  it('a right password and then its code count as no failure; a wrong code counts under the user, not the address', async () => {
    t = await createTestApp();
    await t.user('alice');
    const { secret } = await enrol(await dashboardSignIn(t, 'alice', 'password123'));
    const from = { address: '203.0.113.50' };
    expect((await dashboardSignIn(t, 'alice', 'password123', from)).error).toBe('second_factor_required');
    expect((await dashboardSignIn(t, 'alice', 'password123', { ...from, code: codeOf(secret, 1) })).status).toBe(200);
    const failures = async () =>
      Object.fromEntries((await t.services.store.signInFailures.byKeys(['user:alice', 'pair:alice@203.0.113.50', 'addr:203.0.113.50'])).filter((r) => r.failures > 0).map((r) => [r.key, r.failures]));
    expect(await failures()).toEqual({});
    expect((await dashboardSignIn(t, 'alice', 'password123', { ...from, code: '000000' === codeOf(secret, 1) ? '111111' : '000000' })).error).toBe('invalid_second_factor');
    expect(await failures()).toEqual({ 'user:alice': 1, 'pair:alice@203.0.113.50': 1 });
  });
});

describe('REQUIRE_2FA', () => {
  it('leads a password-only user to enrolment and lets them reach nothing else first', async () => {
    t = await createTestApp({ REQUIRE_2FA: 'true' });
    await t.user('alice');
    const b = await dashboardSignIn(t, 'alice', 'password123');
    expect(b.status).toBe(200);
    expect(await (await b.send('GET', '/bff/session')).json()).toMatchObject({ enrolment_required: true });
    const blocked = await b.send('GET', '/bff/api/domains');
    expect(blocked.status).toBe(403);
    expect((await blocked.json()).error.code).toBe('enrolment_required');
    expect((await b.send('POST', '/bff/api/domains', { name: 'x.test' })).status).toBe(403);
    expect(await t.services.store.domains.byName('x.test')).toBeUndefined();
    await enrol(b);
    expect(await (await b.send('GET', '/bff/session')).json()).toMatchObject({ enrolment_required: false });
    expect((await b.send('GET', '/bff/api/domains')).status).toBe(200);
  });
});
