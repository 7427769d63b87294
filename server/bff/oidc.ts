/**
 * Single sign-on routes of the BFF (DESIGN.md §20): `GET /bff/oidc/start` sends the browser to the
 * OpenID provider, `GET /bff/oidc/callback` takes it back, checks everything (services/oidc.ts)
 * and starts a dashboard session exactly as a password sign-in does. A refusal lands on the
 * sign-in page with a code it words (`/sign-in?error=sso_expired`), never a stack trace.
 *
 * The browser that started a request is bound to it by a random value in a short-lived cookie
 * (SameSite=Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie
 * would miss); only its hash is stored, beside the state, nonce and PKCE verifier.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { clientAddress } from '../client-address';
import type { Services } from '../services';
import { LOGIN_MS, newBrowserSecret, OidcRefusal, OidcUnavailable } from '../services/oidc';
import { readSessionCookie, writeSessionCookie } from './cookie';
import { BffError } from './errors';
import type { BffEnv } from './guard';
import type { Sessions } from '../services/sessions';

const COOKIE = 'zd_oidc';
const COOKIE_PATH = '/bff/oidc';
/** Longer query strings are no answer of a provider. */
const MAX_CALLBACK_QUERY = 8192;

const https = (c: Context<BffEnv>) => c.get('siteOrigin').startsWith('https:');
const redirectUri = (c: Context<BffEnv>) => `${c.get('siteOrigin')}/bff/oidc/callback`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function oidcApp(services: Services, sessions: Sessions) {
  const { oidc, audit } = services;
  const app = new Hono<BffEnv>();

  app.use('*', async (_c, next) => {
    if (!oidc.configured) throw new BffError(404, 'not_found', 'single sign-on is not configured on this server (OIDC_ISSUER)');
    await next();
  });

  app.get('/start', async (c) => {
    // One value per browser, kept across tabs: a second tab's start does not void the first's.
    const held = getCookie(c, COOKIE);
    const browser = held && /^[A-Za-z0-9_-]{43}$/.test(held) ? held : newBrowserSecret();
    let to: URL;
    try {
      to = await oidc.start(redirectUri(c), browser, c.req.query('next'));
    } catch (e) {
      if (!(e instanceof OidcUnavailable)) throw e;
      const message = `${oidc.name} cannot be reached right now. Try again in a minute, or sign in another way.`;
      if ((c.req.header('accept') ?? '').includes('text/html')) {
        return c.html(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign-in unavailable</title><h1>Sign-in unavailable</h1><p>${escapeHtml(message)}</p><p><a href="/sign-in">Back to sign-in</a></p></html>`, 503);
      }
      throw new BffError(503, 'sso_unavailable', message);
    }
    setCookie(c, COOKIE, browser, { httpOnly: true, sameSite: 'Lax', path: COOKIE_PATH, secure: https(c), maxAge: LOGIN_MS / 1000 });
    return c.redirect(to.href, 302);
  });

  app.get('/callback', async (c) => {
    const from = { address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' };
    const browser = getCookie(c, COOKIE);
    deleteCookie(c, COOKIE, { path: COOKIE_PATH, secure: https(c) });
    const query = new URL(c.req.url).search;
    let signedIn;
    try {
      if (query.length > MAX_CALLBACK_QUERY) throw new OidcRefusal('sso_failed', 'the answer of the identity provider is too long');
      signedIn = await oidc.finish(redirectUri(c), new URLSearchParams(query), browser);
    } catch (e) {
      if (!(e instanceof OidcRefusal)) throw e;
      await audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'oidc', ...from }, detail: { method: 'oidc', reason: e.code, message: e.message } });
      return c.redirect(`/sign-in?error=${e.code}`, 302);
    }
    const { user, identity, how, next } = signedIn;
    // A fresh session id at every sign-in (no fixation); a session the browser still held ends.
    const previous = await sessions.resume(readSessionCookie(c));
    if (previous) await sessions.end(previous.row);
    const { secret, row } = await sessions.start(user, 'oidc');
    await audit.record({
      kind: 'sign-in',
      actor: { userId: user.id, username: user.username, credential: 'oidc', ...from },
      subject: { id: user.id, username: user.username },
      detail: { session_id: row.token_id, method: 'oidc', issuer: identity.issuer, ...(identity.email ? { email: identity.email } : {}), ...(how !== 'linked' ? { first: how } : {}) },
    });
    writeSessionCookie(c, secret);
    return c.redirect(next, 302);
  });

  return app;
}
