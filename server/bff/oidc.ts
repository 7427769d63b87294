/**
 * Single sign-on routes of the BFF: `GET /bff/oidc/start` sends the browser to the OpenID
 * provider, `GET /bff/oidc/callback` takes it back, checks everything (services/oidc.ts) and
 * starts a dashboard session exactly as a password sign-in does. A refusal lands on the sign-in
 * page with a code it words (`/sign-in?error=sso_expired`), never a stack trace.
 *
 * A signed-in user links an identity to their own account with `POST /bff/oidc/link` (from the
 * Account page, within 10 minutes of a sign-in): the same round trip, whose callback links instead
 * of signing in, for that user and that browser only. Nothing else links an identity to an
 * existing account.
 *
 * Unless OIDC_SKIP_2FA, a user with a second factor (TOTP, or a passkey) gives it after the
 * provider too: the callback holds the sign-in (a cookie of its own, single use, 10 minutes) and
 * the sign-in page asks for the code (`POST /bff/oidc/second-factor`) or a passkey.
 *
 * The browser that started a request is bound to it by a random value in a short-lived cookie
 * (SameSite=Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie
 * would miss); only its hash is stored, beside the state, nonce and PKCE verifier.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { clientAddress } from '../http/client-address';
import { LOGIN_MS, newBrowserSecret, OidcRefusal, OidcUnavailable, type OidcSignIn } from '../services/identity/oidc';
import { requireRecent } from '../services/identity/second-factors';
import type { ActiveSession } from '../services/identity/sessions';
import type { BffDeps } from './bff-deps';
import { readSessionCookie } from './cookie';
import { BffError } from './errors';
import { jsonBody, parsedBody } from './json-body';
import { originCheck, requireSession, type BffEnv } from './guard';
import { beginSession, requestFrom, reserveTry } from './signing-in';

const COOKIE = 'zd_oidc';
/** The sign-in held for a second factor; Strict: only this site's own page sends the code. */
const STEP_COOKIE = 'zd_oidc_step';
const COOKIE_PATH = '/bff/oidc';
/** Longer query strings are no answer of a provider. */
const MAX_CALLBACK_QUERY = 8192;

const https = (c: Context<BffEnv>) => c.get('siteOrigin').startsWith('https:');
const redirectUri = (c: Context<BffEnv>) => `${c.get('siteOrigin')}/bff/oidc/callback`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A path of this site with one more query parameter. */
function withParam(path: string, key: string, value: string): string {
  const u = new URL(path, 'http://x');
  u.searchParams.set(key, value);
  return `${u.pathname}${u.search}`;
}

const CodeBody = z.strictObject({ code: z.string().max(64) });

export function oidcApp(deps: BffDeps) {
  const { services, sessions, throttle, now, info } = deps;
  const { oidc, audit } = services;
  const app = new Hono<BffEnv>();
  /** The value binding this browser to its requests: one per browser, kept across tabs, so a second tab's start does not void the first's. */
  const browserOf = (c: Context<BffEnv>) => {
    const held = getCookie(c, COOKIE);
    return held && /^[A-Za-z0-9_-]{43}$/.test(held) ? held : newBrowserSecret();
  };
  const bind = (c: Context<BffEnv>, browser: string) => setCookie(c, COOKIE, browser, { httpOnly: true, sameSite: 'Lax', path: COOKIE_PATH, secure: https(c), maxAge: LOGIN_MS / 1000 });
  const unreachable = () => `${oidc.name} cannot be reached right now. Try again in a minute, or sign in another way.`;

  app.use('*', async (_c, next) => {
    if (!oidc.configured) throw new BffError(404, 'not_found', 'single sign-on is not configured on this server (OIDC_ISSUER)');
    await next();
  });

  app.get('/start', async (c) => {
    const browser = browserOf(c);
    let to: URL;
    try {
      to = await oidc.start(redirectUri(c), browser, c.req.query('next'));
    } catch (e) {
      if (!(e instanceof OidcUnavailable)) throw e;
      if ((c.req.header('accept') ?? '').includes('text/html')) {
        return c.html(
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign-in unavailable</title><h1>Sign-in unavailable</h1><p>${escapeHtml(unreachable())}</p><p><a href="/sign-in">Back to sign-in</a></p></html>`,
          503,
        );
      }
      throw new BffError(503, 'sso_unavailable', unreachable());
    }
    bind(c, browser);
    return c.redirect(to.href, 302);
  });

  /**
   * Links the provider's identity to the signed-in user (the Account page's button): answers the
   * provider's URL for the page to send the browser to. A POST with the session's CSRF token, so
   * no other site can start it, and within 10 minutes of a sign-in, as for any new way in.
   */
  app.post('/link', originCheck, requireSession(sessions), async (c) => {
    const s = c.get('session');
    requireRecent(s.row, now(), 'linking single sign-on');
    const browser = browserOf(c);
    let to: URL;
    try {
      to = await oidc.start(redirectUri(c), browser, '/account', s.row.user_id);
    } catch (e) {
      if (!(e instanceof OidcUnavailable)) throw e;
      throw new BffError(503, 'sso_unavailable', unreachable());
    }
    bind(c, browser);
    return c.json({ location: to.href }, 200);
  });

  app.get('/callback', async (c) => {
    const from = requestFrom(c);
    const browser = getCookie(c, COOKIE);
    deleteCookie(c, COOKIE, { path: COOKIE_PATH, secure: https(c) });
    const query = new URL(c.req.url).search;
    // Who this browser is signed in as: a link request is finished only for the user who made it.
    const current = await sessions.resume(readSessionCookie(c));
    let outcome;
    try {
      if (query.length > MAX_CALLBACK_QUERY) throw new OidcRefusal('sso_failed', 'the answer of the identity provider is too long');
      outcome = await oidc.finish(redirectUri(c), new URLSearchParams(query), browser, current?.row.user_id);
    } catch (e) {
      if (!(e instanceof OidcRefusal)) throw e;
      if (e.link) return c.redirect(withParam('/account', 'sso', e.code), 302);
      await audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'oidc', ...from }, detail: { method: 'oidc', reason: e.code, message: e.message } });
      return c.redirect(`/sign-in?error=${e.code}`, 302);
    }
    if (outcome.kind === 'link') return c.redirect(withParam(outcome.next, 'sso', 'linked'), 302);
    const { user } = outcome;
    // Unless the operator lets the provider's sign-in stand for it, a user's second factor is asked here too.
    if (!oidc.skipsSecondFactor && ((await services.secondFactors.required(user.id)) || (await services.passkeys.list(user.id)).length > 0)) {
      const step = await oidc.holdForSecondFactor(outcome);
      setCookie(c, STEP_COOKIE, step, { httpOnly: true, sameSite: 'Strict', path: COOKIE_PATH, secure: https(c), maxAge: LOGIN_MS / 1000 });
      return c.redirect(`/sign-in?sso=second-factor&next=${encodeURIComponent(outcome.next)}`, 302);
    }
    await startSession(c, outcome);
    return c.redirect(outcome.next, 302);
  });

  /** What the held sign-in still needs: a TOTP code, or a passkey (the sign-in page offers what the user has). */
  app.get('/second-factor', async (c) => {
    const held = await oidc.held(getCookie(c, STEP_COOKIE));
    const user = held && (await services.store.users.byId(held.user_id));
    if (!held || !user) throw new BffError(401, 'sso_expired', 'This sign-in is over or took too long: sign in again.');
    return c.json({ username: user.username, totp: await services.secondFactors.required(user.id), passkey: (await services.passkeys.list(user.id)).length > 0 }, 200);
  });

  /** The held sign-in's TOTP code (or a recovery code): right, and the session starts as after any sign-in. */
  app.post('/second-factor', originCheck, jsonBody(4096), async (c) => {
    const body = await parsedBody(c, CodeBody, 'send {"code": "…"} as JSON');
    const secret = getCookie(c, STEP_COOKIE);
    const held = await oidc.held(secret);
    const user = held && (await services.store.users.byId(held.user_id));
    if (!secret || !held || !user || user.disabled_at) throw new BffError(401, 'sso_expired', 'This sign-in is over or took too long: sign in again.');
    const attempt = { username: user.username, address: clientAddress(c) };
    await reserveTry(c, deps, attempt, 'sign-ins');
    // The provider proved who this is, as a right password does: wrong codes count under the user, not the address.
    await throttle.passwordRight(attempt);
    const factor = await services.secondFactors.verify(user.id, body.code);
    if (!factor) {
      await audit.record({
        kind: 'sign-in-failed',
        actor: { username: '', credential: 'oidc', ...requestFrom(c) },
        subject: { id: user.id, username: user.username },
        detail: { method: 'oidc', factor: 'totp' },
      });
      throw new BffError(401, 'invalid_second_factor', 'Wrong code. Enter the current code of your authenticator app, or an unused recovery code.');
    }
    await throttle.succeeded(attempt);
    const taken = await oidc.release(secret);
    if (!taken) throw new BffError(401, 'sso_expired', 'This sign-in is over or took too long: sign in again.');
    deleteCookie(c, STEP_COOKIE, { path: COOKIE_PATH, secure: https(c) });
    const signIn: OidcSignIn = {
      kind: 'sign-in',
      user,
      next: taken.next_path,
      identity: { issuer: taken.issuer, subject: '', email: taken.email },
      how: taken.how === 'created' ? 'created' : 'linked',
    };
    const session = await startSession(c, signIn, factor);
    return c.json({ ...(await info(session)), next: taken.next_path }, 200);
  });

  /** Starts the session of a sign-in through the provider, as every sign-in does (signing-in.ts). */
  function startSession(c: Context<BffEnv>, signIn: OidcSignIn, factor?: string): Promise<ActiveSession> {
    const { user, identity, how } = signIn;
    return beginSession(c, deps, user, 'oidc', {
      method: 'oidc',
      issuer: identity.issuer,
      ...(identity.email ? { email: identity.email } : {}),
      ...(how !== 'linked' ? { first: how } : {}),
      ...(factor ? { factor } : {}),
    });
  }

  return app;
}
