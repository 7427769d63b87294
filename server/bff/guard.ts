/**
 * Request guards of the BFF: the session behind the cookie, and CSRF protection for every
 * state-changing call (an Origin that is our own, plus the session's token in a header that
 * a cross-site form cannot set).
 */
import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { requestOrigin } from '../http/client-address';
import { BffError, signedOut } from './errors';
import { clearSessionCookie, readSessionCookie, siteOrigin } from './cookie';
import type { ActiveSession, Sessions } from '../services/identity/sessions';

export type BffEnv = { Variables: { requestId: string; session: ActiveSession; siteOrigin: string } };

export const CSRF_HEADER = 'X-CSRF-Token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Rejects a state-changing request whose Origin is missing or foreign, or that a browser marks cross-site. */
export function checkOrigin(c: Context): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if (!origin || origin !== siteOrigin(c) || (site !== undefined && site !== 'same-origin')) {
    throw new BffError(403, 'csrf', 'cross-origin request refused: the Origin header must be this site');
  }
}

/**
 * Whether the dashboard may answer at `hostname` when PUBLIC_URL does not name its site: an IP
 * literal or localhost (no rebinding page can be either), or a name in ALLOWED_HOSTS (`*.example.net`
 * for every name below example.net).
 */
export function hostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return allowed.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a));
}

/**
 * The site the dashboard is served at, set for every BFF request (`siteOrigin`). Behind a
 * TLS-terminating proxy Node sees http://internal-host: PUBLIC_URL says what browsers see. Without
 * it, the site is the request's own (or a TRUST_PROXY proxy's word for it), and only at a host the
 * operator listed: a DNS-rebinding page (its own name, our address) is refused.
 */
export function siteCheck(publicOrigin: string | undefined, allowedHosts: readonly string[]): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const origin = publicOrigin ?? requestOrigin(c);
    if (!publicOrigin && !hostAllowed(new URL(origin).hostname, allowedHosts)) {
      throw new BffError(403, 'host_not_allowed', `the dashboard is not served at ${new URL(origin).hostname}: set PUBLIC_URL to the address users open it at (or list the name in ALLOWED_HOSTS)`);
    }
    c.set('siteOrigin', origin);
    await next();
    c.header('Cache-Control', 'no-store');
  };
}

/** A state-changing call without the session's CSRF token in its header. */
export const csrfRefused = () => new BffError(403, 'csrf', `missing or wrong ${CSRF_HEADER} header; reload the page`);

export const originCheck: MiddlewareHandler = async (c, next) => {
  checkOrigin(c);
  return next();
};

/** Loads the session; on a state-changing method also requires its CSRF token. */
export function requireSession(sessions: Sessions): MiddlewareHandler<BffEnv> {
  return async (c, next) => {
    const session = await sessions.resume(readSessionCookie(c));
    if (!session) {
      clearSessionCookie(c);
      throw signedOut();
    }
    if (!SAFE_METHODS.has(c.req.method) && !sessions.csrfMatches(session.row, c.req.header(CSRF_HEADER))) throw csrfRefused();
    c.set('session', session);
    return next();
  };
}
