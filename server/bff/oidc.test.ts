/**
 * Single sign-on with OpenID Connect through a real local provider (oidc-provider on 127.0.0.1),
 * driven as a browser would: the dashboard's button, the provider's login form, the way back to
 * the BFF. What a user notices: a session (or not), the sign-in page's error, the user and
 * identity the sign-in made, the link a signed-in user makes from the Account page (the only way
 * an identity reaches an existing account), the second factor asked after the provider, and the
 * password switch. Runs on SQLite and PostgreSQL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/main';
import { ConfigError, loadConfig } from '../config';
import { dashboardSignIn } from '../testing/dashboard-client';
import { startTestIdp, type TestIdp } from '../testing/oidc-idp';
import { createTestApp, type TestApp } from '../testing/test-app';

let idp: TestIdp;
let t: TestApp;

beforeAll(async () => {
  idp = await startTestIdp(['http://localhost/bff/oidc/callback']);
  idp.accounts.set('alice', { sub: 'sub-alice', email: 'Alice@Example.com', email_verified: true, preferred_username: 'alice.sso' });
  idp.accounts.set('mallory', { sub: 'sub-mallory', email: 'alice@example.com', email_verified: false, preferred_username: 'mallory' });
  idp.accounts.set('newcomer', { sub: 'sub-new', email: 'new.comer@example.com', email_verified: true, preferred_username: 'Zoë Admin!' });
});
afterAll(() => idp?.close());
afterEach(() => t?.close());

const sso = (extra: Record<string, string> = {}) => ({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, ...extra });

/** The button: the BFF's redirect to the provider and the cookie that binds this browser. */
async function start(app: TestApp, next?: string): Promise<{ authUrl: string; browser: string }> {
  const res = await app.request('GET', `/bff/oidc/start${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`, { token: null });
  expect(res.status).toBe(302);
  const browser = res.headers.get('set-cookie')!.split(';')[0]!;
  expect(browser).toMatch(/^zd_oidc=/);
  expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  return { authUrl: res.headers.get('location')!, browser };
}

/** Signs in at the provider as `login` and returns the URL it sends the browser back to (zonedeck's callback). */
async function atProvider(authUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0]!;
      const i = pair.indexOf('=');
      if (pair.slice(i + 1) === '' || /expires=Thu, 01 Jan 1970/i.test(set)) jar.delete(pair.slice(0, i));
      else jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  const query = new URL(authUrl).searchParams;
  expect(query.get('code_challenge_method')).toBe('S256');
  expect(query.get('state')).toBeTruthy();
  expect(query.get('nonce')).toBeTruthy();
  let url = authUrl;
  let res = await go(url);
  for (let hops = 0; hops < 10; hops++) {
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      if (url.startsWith('http://localhost/bff/oidc/callback')) return url;
      res = await go(url);
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html);
    expect(action, html).toBeTruthy();
    res = await go(new URL(action![1]!, url).href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `login=${encodeURIComponent(login)}` });
  }
  throw new Error('the provider never sent the browser back');
}

/** The way back: zonedeck's callback as the browser (with its cookies) opens it. */
async function back(app: TestApp, url: string, browser?: string): Promise<{ status: number; location: string; session?: string; step?: string }> {
  const u = new URL(url);
  const res = await app.request('GET', u.pathname + u.search, { token: null, headers: browser ? { cookie: browser } : {} });
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const session = set.find((c) => c.startsWith('zd_session=') && c !== 'zd_session=');
  const step = set.find((c) => c.startsWith('zd_oidc_step=') && c !== 'zd_oidc_step=');
  return { status: res.status, location: res.headers.get('location') ?? '', session, step };
}

async function signInWithSso(app: TestApp, login: string) {
  const { authUrl, browser } = await start(app);
  return back(app, await atProvider(authUrl, login), browser);
}

const SAME_SITE = { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' };

/** A dashboard session's cookie and CSRF token, from a password sign-in. */
async function passwordSession(app: TestApp, username: string): Promise<{ cookie: string; csrf: string }> {
  const res = await app.request('POST', '/bff/sign-in', { token: null, headers: SAME_SITE, body: { username, password: 'password123' } });
  expect(res.status).toBe(200);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
}

/**
 * The Account page's "Link": the signed-in browser asks the BFF, goes to the provider as `login`,
 * and comes back with both its cookies (or, with `otherSession`, signed in as someone else by then).
 */
async function link(app: TestApp, session: { cookie: string; csrf: string }, login: string, otherSession?: string) {
  const res = await app.request('POST', '/bff/oidc/link', { token: null, headers: { ...SAME_SITE, cookie: session.cookie, 'x-csrf-token': session.csrf } });
  if (res.status !== 200) return { status: res.status, error: ((await res.json()) as { error: { code: string } }).error.code, location: '', session: undefined };
  const browser = res.headers.get('set-cookie')!.split(';')[0]!;
  const { location } = (await res.json()) as { location: string };
  const answer = await atProvider(location, login);
  return back(app, answer, `${browser}; ${otherSession ?? session.cookie}`);
}

/** Links the provider's `login` to `username` as its owner would, from a fresh password session. */
async function linkAs(app: TestApp, username: string, login: string): Promise<void> {
  expect((await link(app, await passwordSession(app, username), login)).location).toBe('/account?sso=linked');
}

async function whoIs(app: TestApp, session: string | undefined): Promise<string | null> {
  if (!session) return null;
  const res = await app.request('GET', '/bff/session', { token: null, headers: { cookie: session } });
  return res.status === 200 ? ((await res.json()) as { username: string }).username : null;
}

/** Runs SQL on the app's database from outside, as someone who holds it could. */
async function tamper(app: TestApp, statement: string): Promise<void> {
  if (app.services.store.kind === 'sqlite') {
    const db = new Database(app.config.sqlitePath);
    db.exec(statement);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: app.config.databaseUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}

/** Who sets up the tests' users (the admin CLI's credential). */
const TEST_ADMIN = { username: '', credential: 'cli' };

async function makeUser(app: TestApp, name: string, opts: { email?: string; admin?: boolean } = {}) {
  await app.user(name);
  const user = (await app.services.store.users.byUsername(name))!;
  if (opts.email) await app.services.users.setEmail(TEST_ADMIN, name, opts.email);
  if (opts.admin) await app.services.users.update(TEST_ADMIN, name, { is_admin: true });
  return user;
}

describe('single sign-on (OpenID Connect)', () => {
  it('signs in the user an identity is linked to, lands on the page it started from, and audits the sign-in', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    const methods = await (await t.request('GET', '/bff/sign-in-methods', { token: null })).json();
    expect(methods).toEqual({ password: true, passkey: true, oidc: { name: 'Single sign-on' } });
    await linkAs(t, 'alice', 'alice');

    const first = await signInWithSso(t, 'alice');
    expect([first.status, first.location]).toEqual([302, '/']);
    expect(await whoIs(t, first.session)).toBe('alice');
    const user = (await t.services.store.users.byUsername('alice'))!;
    const ids = await t.services.store.identities.byUser(user.id);
    expect(ids.map((i) => [i.issuer, i.subject, i.email])).toEqual([[idp.issuer, 'sub-alice', 'alice@example.com']]);
    const signIns = await t.services.store.audit.page({ all: true, kind: 'sign-in' }, { offset: 0, limit: 10 });
    expect(signIns.rows[0]).toMatchObject({ credential: 'oidc', actor_username: 'alice', detail: { method: 'oidc', issuer: idp.issuer } });

    // Linked: the identity signs in whatever the user's address becomes.
    await t.services.users.setEmail(TEST_ADMIN, user.username, 'other@example.com');
    const again = await signInWithSso(t, 'alice');
    expect(await whoIs(t, again.session)).toBe('alice');
    // Back to the page the sign-in started from; never to another site.
    for (const [next, lands] of [
      ['/account?tab=1', '/account?tab=1'],
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/\\evil.example', '/'],
    ]) {
      const s = await start(t, next);
      expect((await back(t, await atProvider(s.authUrl, 'alice'), s.browser)).location).toBe(lands);
    }
    // The session counts as a recent sign-in: a token can be made at once.
    const token = await t.request('POST', '/bff/api/tokens', {
      token: null,
      body: { label: 'x' },
      headers: {
        cookie: again.session!,
        origin: 'http://localhost',
        'x-csrf-token': ((await (await t.request('GET', '/bff/session', { token: null, headers: { cookie: again.session! } })).json()) as { csrf_token: string }).csrf_token,
      },
    });
    expect(token.status).toBe(201);
  });

  it('never links an identity to an existing account by its email, an administrator least of all', async () => {
    t = await createTestApp(sso({ OIDC_AUTO_CREATE: 'true' }));
    await makeUser(t, 'root', { email: 'alice@example.com', admin: true });
    // The provider vouches for the address of an administrator: no session, no link, no second account.
    const refused = await signInWithSso(t, 'alice');
    expect([refused.location, refused.session]).toEqual(['/sign-in?error=sso_not_linked', undefined]);
    expect(await t.services.store.identities.byIssuerSubject(idp.issuer, 'sub-alice')).toBeUndefined();
    expect(await t.services.store.users.count()).toBe(1);
    const failed = await t.services.store.audit.page({ all: true, kind: 'sign-in-failed' }, { offset: 0, limit: 5 });
    expect(failed.rows.map((e) => e.detail.reason)).toEqual(['sso_not_linked']);
  });

  it('links an identity to the signed-in user who asks, from a recent sign-in and the same browser only; unlinking ends it', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await makeUser(t, 'bob');
    const alice = await passwordSession(t, 'alice');

    // Not signed in, or signed in too long ago: no link is started.
    expect((await t.request('POST', '/bff/oidc/link', { token: null, headers: SAME_SITE })).status).toBe(401);
    const [row] = await t.services.store.sessions.byUser((await t.services.store.users.byUsername('alice'))!.id);
    await t.forge.sessions.authenticated(row!.id_hash, new Date(Date.now() - 11 * 60_000).toISOString());
    expect(await link(t, alice, 'alice')).toMatchObject({ status: 403, error: 'reauthentication_required' });
    expect(
      (await t.request('POST', '/bff/reauthenticate', { token: null, headers: { ...SAME_SITE, cookie: alice.cookie, 'x-csrf-token': alice.csrf }, body: { password: 'password123' } })).status,
    ).toBe(204);

    // The browser came back signed in as someone else: nothing is linked, to either.
    const bob = await passwordSession(t, 'bob');
    const swapped = await link(t, alice, 'alice', bob.cookie);
    expect(swapped.location).toBe('/account?sso=sso_expired');
    expect(await t.services.store.identities.byIssuerSubject(idp.issuer, 'sub-alice')).toBeUndefined();

    const linked = await link(t, alice, 'alice');
    expect([linked.status, linked.location, linked.session]).toEqual([302, '/account?sso=linked', undefined]);
    const events = await t.services.store.audit.page({ all: true, kind: 'identity-linked' }, { offset: 0, limit: 5 });
    expect(events.rows.map((e) => [e.actor_username, e.subject_username, e.detail.by])).toEqual([['alice', 'alice', 'account page']]);
    // Linked to alice: bob cannot take it.
    expect((await link(t, bob, 'alice')).location).toBe('/account?sso=sso_taken');
    expect(await whoIs(t, (await signInWithSso(t, 'alice')).session)).toBe('alice');

    // Unlinked from the Account page: it signs in nobody.
    const [identity] = await (await t.request('GET', '/bff/api/account/identities', { token: null, headers: { cookie: alice.cookie } })).json();
    expect((await t.request('DELETE', `/bff/api/account/identities/${identity.id}`, { token: null, headers: { ...SAME_SITE, cookie: alice.cookie, 'x-csrf-token': alice.csrf } })).status).toBe(204);
    expect((await signInWithSso(t, 'alice')).location).toBe('/sign-in?error=sso_not_linked');
    const unlinked = await t.services.store.audit.page({ all: true, kind: 'identity-unlinked' }, { offset: 0, limit: 5 });
    expect(unlinked.rows.map((e) => [e.actor_username, e.detail.issuer])).toEqual([['alice', idp.issuer]]);
  });

  it('refuses a tampered, replayed, foreign-browser or nonce-changed answer, with no session', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await linkAs(t, 'alice', 'alice');

    // Tampered state: the request is unknown.
    const a = await start(t);
    const url = new URL(await atProvider(a.authUrl, 'alice'));
    const good = url.href;
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    const tampered = await back(t, url.href, a.browser);
    expect([tampered.status, tampered.location, tampered.session]).toEqual([302, '/sign-in?error=sso_expired', undefined]);

    // Missing state.
    const noState = new URL(good);
    noState.searchParams.delete('state');
    expect((await back(t, noState.href, a.browser)).location).toBe('/sign-in?error=sso_expired');

    // The right answer works once; the same answer again is refused.
    const ok = await back(t, good, a.browser);
    expect(await whoIs(t, ok.session)).toBe('alice');
    const replay = await back(t, good, a.browser);
    expect([replay.location, replay.session]).toEqual(['/sign-in?error=sso_expired', undefined]);

    // Another browser (without the cookie that started the request) cannot finish it.
    const b = await start(t);
    const stolen = await back(t, await atProvider(b.authUrl, 'alice'));
    expect([stolen.location, stolen.session]).toEqual(['/sign-in?error=sso_expired', undefined]);

    // A nonce that is not the one the ID token carries: the token is refused.
    const c = await start(t);
    const answer = await atProvider(c.authUrl, 'alice');
    await tamper(t, "update oidc_logins set nonce = 'not-the-nonce-sent'");
    const wrongNonce = await back(t, answer, c.browser);
    expect([wrongNonce.location, wrongNonce.session]).toEqual(['/sign-in?error=sso_failed', undefined]);

    // A provider that signs another nonce into the ID token than the one asked for.
    idp.tamper.nonce = true;
    try {
      const other = await signInWithSso(t, 'alice');
      expect([other.location, other.session]).toEqual(['/sign-in?error=sso_failed', undefined]);
    } finally {
      idp.tamper.nonce = false;
    }

    // A provider's refusal (the user cancelled) lands on the sign-in page too.
    const d = await start(t);
    const state = new URL(d.authUrl).searchParams.get('state')!;
    const denied = await back(t, `http://localhost/bff/oidc/callback?error=access_denied&state=${state}`, d.browser);
    expect(denied.location).toBe('/sign-in?error=sso_denied');

    const failed = await t.services.store.audit.page({ all: true, kind: 'sign-in-failed' }, { offset: 0, limit: 20 });
    expect(failed.rows.map((e) => e.detail.reason).sort()).toEqual(['sso_denied', 'sso_expired', 'sso_expired', 'sso_expired', 'sso_expired', 'sso_failed', 'sso_failed']);
  });

  it('creates users only with OIDC_AUTO_CREATE, and never for an unverified claim to an address', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    // mallory's provider account claims alice's address, unverified.
    const mallory = await signInWithSso(t, 'mallory');
    expect([mallory.location, mallory.session]).toEqual(['/sign-in?error=sso_no_account', undefined]);
    expect(await t.services.store.identities.byUser((await t.services.store.users.byUsername('alice'))!.id)).toEqual([]);
    const newcomer = await signInWithSso(t, 'newcomer');
    expect(newcomer.location).toBe('/sign-in?error=sso_no_account');
    expect(await t.services.store.users.count()).toBe(1);
    await t.close();

    t = await createTestApp(sso({ OIDC_AUTO_CREATE: 'true' }));
    await makeUser(t, 'zoe-admin');
    const created = await signInWithSso(t, 'newcomer');
    // "Zoë Admin!" is made a valid name, and one that is free.
    expect(await whoIs(t, created.session)).toBe('zoe-admin-2');
    const user = (await t.services.store.users.byUsername('zoe-admin-2'))!;
    expect(user.is_admin).toBe(false);
    expect(await t.services.store.identities.emailOf(user.id)).toBe('new.comer@example.com');
    // The second time it is the same user, not another one.
    expect(await whoIs(t, (await signInWithSso(t, 'newcomer')).session)).toBe('zoe-admin-2');
    expect(await t.services.store.users.count()).toBe(2);
  });

  it('refuses a disabled user', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await linkAs(t, 'alice', 'alice');
    expect(await whoIs(t, (await signInWithSso(t, 'alice')).session)).toBe('alice');
    await t.services.users.update(TEST_ADMIN, 'alice', { disabled: true });
    const refused = await signInWithSso(t, 'alice');
    expect([refused.location, refused.session]).toEqual(['/sign-in?error=sso_disabled', undefined]);
  });

  it('is not offered, and its routes are not found, without OIDC_ISSUER', async () => {
    t = await createTestApp();
    expect(await (await t.request('GET', '/bff/sign-in-methods', { token: null })).json()).toEqual({ password: true, passkey: true, oidc: null });
    expect((await t.request('GET', '/bff/oidc/start', { token: null })).status).toBe(404);
  });

  it('answers 503 while the provider cannot be reached, and signs in once it can', async () => {
    // A port nothing listens on yet: the provider is down.
    const spare = http.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    t = await createTestApp(sso({ OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_AUTO_CREATE: 'true' }));
    const res = await t.request('GET', '/bff/oidc/start', { token: null });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('sso_unavailable');
    const page = await t.request('GET', '/bff/oidc/start', { token: null, headers: { accept: 'text/html' } });
    expect([page.status, await page.text()]).toEqual([503, expect.stringContaining('Single sign-on cannot be reached right now')]);

    // The provider comes up: the next click discovers it and signs in.
    const late = await startTestIdp(['http://localhost/bff/oidc/callback'], port);
    try {
      late.accounts.set('alice', { sub: 'sub-alice', email: 'alice@example.com', email_verified: true, preferred_username: 'alice' });
      expect(await whoIs(t, (await signInWithSso(t, 'alice')).session)).toBe('alice');
    } finally {
      await late.close();
    }
  });
});

describe("zonedeck's second factor after the provider", () => {
  /** The code an authenticator app shows `stepsAhead` periods from now (a code is accepted one step either side, and once). */
  const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
  const step = (app: TestApp, method: string, cookie: string, body?: unknown) => app.request(method, '/bff/oidc/second-factor', { token: null, headers: { ...SAME_SITE, cookie }, body });

  /** Turns TOTP on for `username` as they would on their Account page; returns the secret. */
  async function enrolTotp(app: TestApp, username: string): Promise<string> {
    const s = await passwordSession(app, username);
    const headers = { ...SAME_SITE, cookie: s.cookie, 'x-csrf-token': s.csrf };
    const { secret } = await (await app.request('POST', '/bff/api/account/totp', { token: null, headers })).json();
    expect((await app.request('POST', '/bff/api/account/totp/confirm', { token: null, headers, body: { code: codeOf(secret) } })).status).toBe(200);
    return secret;
  }

  it('asks a user who has one for their code before the session starts; a wrong code or a replay starts none', async () => {
    t = await createTestApp(sso());
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await linkAs(t, 'alice', 'alice');
    const secret = await enrolTotp(t, 'alice');

    const s = await start(t, '/domains');
    const held = await back(t, await atProvider(s.authUrl, 'alice'), s.browser);
    expect([held.status, held.location, held.session]).toEqual([302, '/sign-in?sso=second-factor&next=%2Fdomains', undefined]);
    expect(held.step).toBeTruthy();
    expect(await (await step(t, 'GET', held.step!)).json()).toEqual({ username: 'alice', totp: true, passkey: false });

    const code = codeOf(secret, 1);
    const wrong = await step(t, 'POST', held.step!, { code: code === '000000' ? '111111' : '000000' });
    expect([wrong.status, (await wrong.json()).error.code]).toEqual([401, 'invalid_second_factor']);
    // Another site's page cannot send it (no Origin of ours).
    expect((await t.request('POST', '/bff/oidc/second-factor', { token: null, headers: { cookie: held.step! }, body: { code } })).status).toBe(403);
    const right = await step(t, 'POST', held.step!, { code });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ username: 'alice', next: '/domains' });
    const session = right.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('zd_session=') && c !== 'zd_session=');
    expect(await whoIs(t, session)).toBe('alice');
    // Used once.
    const replay = await step(t, 'POST', held.step!, { code: codeOf(secret) });
    expect([replay.status, (await replay.json()).error.code]).toEqual([401, 'sso_expired']);
    const signIns = await t.services.store.audit.page({ all: true, kind: 'sign-in' }, { offset: 0, limit: 1 });
    expect(signIns.rows[0]).toMatchObject({ credential: 'oidc', actor_username: 'alice', detail: { method: 'oidc', factor: 'totp' } });
  });

  it('with OIDC_SKIP_2FA the provider stands for it, and REQUIRE_2FA holds single sign-on sessions only without it', async () => {
    t = await createTestApp(sso({ OIDC_SKIP_2FA: 'true', REQUIRE_2FA: 'true' }));
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await linkAs(t, 'alice', 'alice');
    const skipped = await signInWithSso(t, 'alice');
    expect(await (await t.request('GET', '/bff/session', { token: null, headers: { cookie: skipped.session! } })).json()).toMatchObject({ enrolment_required: false });
    expect((await t.request('GET', '/bff/api/domains', { token: null, headers: { cookie: skipped.session!, ...SAME_SITE } })).status).toBe(200);
    await enrolTotp(t, 'alice');
    expect(await whoIs(t, (await signInWithSso(t, 'alice')).session)).toBe('alice');
    await t.close();

    t = await createTestApp(sso({ REQUIRE_2FA: 'true' }));
    await makeUser(t, 'alice', { email: 'alice@example.com' });
    await linkAs(t, 'alice', 'alice');
    const { session } = await signInWithSso(t, 'alice');
    expect(await (await t.request('GET', '/bff/session', { token: null, headers: { cookie: session! } })).json()).toMatchObject({ enrolment_required: true });
    const blocked = await t.request('GET', '/bff/api/domains', { token: null, headers: { cookie: session!, ...SAME_SITE } });
    expect([blocked.status, (await blocked.json()).error.code]).toEqual([403, 'enrolment_required']);
  });
});

describe('the switch that turns password sign-in off', () => {
  it('needs an administrator and single sign-on, refuses passwords when off, and the CLI turns it on again', async () => {
    t = await createTestApp();
    const adminToken = await t.user('root');
    await t.services.users.update(TEST_ADMIN, 'root', { is_admin: true });
    const userToken = await t.user('bob');

    expect((await t.request('PUT', '/api/v1/settings/sign-in', { token: userToken, body: { password: false } })).status).toBe(403);
    const noSso = await t.request('PUT', '/api/v1/settings/sign-in', { token: adminToken, body: { password: false } });
    expect(noSso.status).toBe(400);
    expect((await noSso.json()).error.fields).toHaveProperty('password');
    const bad = await t.request('PUT', '/api/v1/settings/sign-in', { token: adminToken, body: { password: 'no' } });
    expect([bad.status, Object.keys((await bad.json()).error.fields)]).toEqual([400, ['password']]);
    expect((await dashboardSignIn(t, 'bob', 'password123')).status).toBe(200);
    await t.close();

    t = await createTestApp(sso());
    const admin = await t.user('root');
    await t.services.users.update(TEST_ADMIN, 'root', { is_admin: true });
    const bobToken = await t.user('bob');
    expect((await t.request('PUT', '/api/v1/settings/sign-in', { token: bobToken, body: { password: false } })).status).toBe(403);
    expect((await t.request('GET', '/api/v1/settings/sign-in', { token: bobToken })).status).toBe(403);
    const off = await t.request('PUT', '/api/v1/settings/sign-in', { token: admin, body: { password: false } });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ password: false, oidc: { name: 'Single sign-on', issuer: idp.issuer } });
    expect(await (await t.request('GET', '/bff/sign-in-methods', { token: null })).json()).toMatchObject({ password: false, passkey: true });

    const refused = await dashboardSignIn(t, 'bob', 'password123');
    expect([refused.status, refused.error]).toEqual([403, 'password_sign_in_disabled']);
    // Passkey sign-in stays open.
    const options = await t.request('POST', '/bff/passkey-sign-in/options', { token: null, headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } });
    expect(options.status).toBe(200);
    const changed = await t.services.store.audit.page({ all: true, kind: 'sign-in-settings-changed' }, { offset: 0, limit: 5 });
    expect(changed.rows.map((e) => [e.actor_username, e.detail.password])).toEqual([['root', false]]);

    // The recovery path: the admin CLI on the same database.
    const lines: string[] = [];
    await run(t.services, ['settings', 'password-sign-in', 'on'], (l) => lines.push(l));
    expect(lines).toEqual(['password sign-in is on']);
    expect((await dashboardSignIn(t, 'bob', 'password123')).status).toBe(200);
  });
});

describe('configuration and administration of single sign-on', () => {
  it('takes OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, and an https issuer (http on loopback only)', () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.com/realms/main' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.com/realms/main' })).toThrow(/OIDC_CLIENT_ID: must be set[\s\S]*OIDC_CLIENT_SECRET: must be set/);
    expect(() => loadConfig({ ...base, OIDC_CLIENT_SECRET: 's' })).toThrow(/OIDC_ISSUER: must be set/);
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'http://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' })).toThrow(/OIDC_ISSUER: must be the issuer URL/);
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_AUTO_CREATE: 'yes' })).toThrow(/OIDC_AUTO_CREATE/);
    const c = loadConfig({ ...base, OIDC_ISSUER: ' https://sso.example.com/realms/main ', OIDC_CLIENT_ID: 'zonedeck', OIDC_CLIENT_SECRET: 's3cret' });
    expect(c.oidc).toEqual({ issuer: 'https://sso.example.com/realms/main', clientId: 'zonedeck', clientSecret: 's3cret', autoCreate: false, name: 'Single sign-on', skipSecondFactor: false });
    expect(loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_SKIP_2FA: 'true' }).oidc?.skipSecondFactor).toBe(true);
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_SKIP_2FA: 'yes' })).toThrow(/OIDC_SKIP_2FA: must be true or false/);
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_NAME: 'Keycloak' }).oidc?.name).toBe('Keycloak');
    expect(loadConfig(base).oidc).toBeUndefined();
  });

  it('lets an administrator give a user an email address, and each user list their identities', async () => {
    t = await createTestApp(sso());
    const admin = await t.user('root');
    await t.services.users.update(TEST_ADMIN, 'root', { is_admin: true });
    const aliceToken = await t.user('alice');
    await t.user('bob');

    expect((await t.request('PUT', '/api/v1/users/alice/email', { token: aliceToken, body: { email: 'alice@example.com' } })).status).toBe(403);
    const bad = await t.request('PUT', '/api/v1/users/alice/email', { token: admin, body: { email: 'not an address' } });
    expect([bad.status, Object.keys((await bad.json()).error.fields)]).toEqual([400, ['email']]);
    const set = await t.request('PUT', '/api/v1/users/alice/email', { token: admin, body: { email: 'Alice@Example.com' } });
    expect([set.status, await set.json()]).toEqual([200, { username: 'alice', email: 'alice@example.com' }]);
    const taken = await t.request('PUT', '/api/v1/users/bob/email', { token: admin, body: { email: 'alice@example.com' } });
    expect([taken.status, (await taken.json()).error.fields.email]).toEqual([400, 'is the address of alice already']);
    expect((await t.request('PUT', '/api/v1/users/nobody/email', { token: admin, body: { email: 'n@example.com' } })).status).toBe(404);

    expect(await (await t.request('GET', '/api/v1/account/identities', { token: aliceToken })).json()).toEqual([]);
    await linkAs(t, 'alice', 'alice');
    await signInWithSso(t, 'alice');
    const ids = await (await t.request('GET', '/api/v1/account/identities', { token: aliceToken })).json();
    expect(ids).toEqual([{ id: expect.any(Number), issuer: idp.issuer, email: 'alice@example.com', created_at: expect.any(String), last_used_at: expect.any(String) }]);

    // The CLI does the same.
    const lines: string[] = [];
    await run(t.services, ['users', 'email', 'bob', 'bob@example.com'], (l) => lines.push(l));
    expect(lines).toEqual(['bob has the email address bob@example.com']);
    expect(await t.services.store.identities.emailOf((await t.services.store.users.byUsername('bob'))!.id)).toBe('bob@example.com');
    await expect(run(t.services, ['users', 'email', 'bob', 'alice@example.com'], () => {})).rejects.toThrow('is the address of alice already');
  });
});
