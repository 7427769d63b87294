/**
 * The session cookie: opaque, HttpOnly, SameSite=Strict, Path=/; under HTTPS also Secure
 * with the `__Host-` prefix, which pins it to this exact origin.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { requestOrigin } from '../http/client-address';

const NAME = 'zd_session';

/** The origin browsers use for the dashboard: PUBLIC_URL's (set by the BFF app), else the request's own. */
export const siteOrigin = (c: Context): string => (c.get('siteOrigin') as string | undefined) ?? requestOrigin(c);

/** HTTPS as the browser sees it: PUBLIC_URL's scheme behind a proxy, else the request's. */
const isHttps = (c: Context) => siteOrigin(c).startsWith('https:');

export function readSessionCookie(c: Context): string | undefined {
  return isHttps(c) ? getCookie(c, NAME, 'host') : getCookie(c, NAME);
}

export function writeSessionCookie(c: Context, value: string): void {
  if (isHttps(c)) setCookie(c, NAME, value, { httpOnly: true, sameSite: 'Strict', path: '/', secure: true, prefix: 'host' });
  else setCookie(c, NAME, value, { httpOnly: true, sameSite: 'Strict', path: '/' });
}

export function clearSessionCookie(c: Context): void {
  if (isHttps(c)) deleteCookie(c, NAME, { httpOnly: true, sameSite: 'Strict', path: '/', secure: true, prefix: 'host' });
  else deleteCookie(c, NAME, { httpOnly: true, sameSite: 'Strict', path: '/' });
}
