/**
 * Forwards the SPA's data calls (`/bff/api/<path>`) to the public API (`/api/v1/<path>`) in
 * process, with the session's token as the bearer. Status, error body and pagination
 * headers pass through unchanged, so the SPA sees exactly what an API client sees.
 */
import type { Context } from 'hono';
import { clientAddress } from '../http/client-address';
import { DASHBOARD_CLIENT_HEADER, DASHBOARD_HEADER, DASHBOARD_MARK } from '../http/dashboard-mark';
import type { BffEnv } from './guard';
import { BffError, signedOut } from './errors';

/** The path of a URL string as sent: between the authority and the query, not normalized. */
function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}
import type { Sessions } from '../services/identity/sessions';

export type ApiFetch = (req: Request) => Response | Promise<Response>;

const PASSED_HEADERS = ['content-type', 'content-disposition', 'etag', 'x-total-count', 'x-page', 'x-per-page', 'x-request-id', 'retry-after', 'x-restorable-days'];

/** The v1 resources the dashboard uses (web/lib/paths.ts): nothing else of /api is reachable through a session. */
const RESOURCES = new Set([
  'ips',
  'domains',
  'deleted-domains',
  'tokens',
  'tsig-keys',
  'webhooks',
  'account',
  'users',
  'audit',
  'teams',
  'invitations',
  'templates',
  'records',
  'batches',
  'settings',
  'admin',
]);

/**
 * The API path a BFF path stands for, built again from its decoded segments (so no dot segment,
 * encoded slash or backslash can lead it elsewhere), or null when it names no v1 resource the
 * dashboard uses: `/bff/api/servers…` (the PowerDNS API), `…/%2e%2e/metrics`.
 */
export function apiPath(rawRest: string): string | null {
  const parts = rawRest.split('/').slice(1);
  if (parts.length === 0 || !RESOURCES.has(parts[0]!)) return null;
  const segments: string[] = [];
  for (const part of parts) {
    let s: string;
    try {
      s = decodeURIComponent(part);
    } catch {
      return null;
    }
    // An empty segment (`//`), a dot segment, or a backslash (read as a slash by some parsers) names nothing.
    if (s === '' || s === '.' || s === '..' || s.includes('\\')) return null;
    segments.push(encodeURIComponent(s));
  }
  return `/api/v1/${segments.join('/')}`;
}

export function forwarder(apiFetch: ApiFetch, sessions: Sessions, prefix = '/bff/api') {
  return async (c: Context<BffEnv>): Promise<Response> => {
    const session = c.get('session');
    const url = new URL(c.req.url);
    // The path as the client sent it (before any URL normalization), then rebuilt segment by segment.
    const raw = rawPath(c.req.raw.url);
    const path = raw.startsWith(`${prefix}/`) ? apiPath(raw.slice(prefix.length)) : null;
    if (path === null) throw new BffError(404, 'not_found', 'no such dashboard API path');
    url.pathname = path;
    // The session's token is the only credential the API may see.
    url.searchParams.delete('apikey');
    const headers = new Headers({ authorization: `Bearer ${session.token}`, accept: 'application/json', 'x-request-id': c.get('requestId'), [DASHBOARD_HEADER]: DASHBOARD_MARK });
    // The browser's user agent and address, for the audit log (a forwarded call has no peer of its own).
    for (const h of ['content-type', 'content-length', 'if-match', 'user-agent']) {
      const v = c.req.header(h);
      if (v !== undefined) headers.set(h, v);
    }
    const address = clientAddress(c);
    if (address !== undefined) headers.set(DASHBOARD_CLIENT_HEADER, address);
    const method = c.req.method;
    const hasBody = method !== 'GET' && method !== 'HEAD' && c.req.raw.body !== null;
    const res = await apiFetch(new Request(url, { method, headers, body: hasBody ? c.req.raw.body : undefined, ...(hasBody ? { duplex: 'half' } : {}) } as RequestInit));
    // The session's token was revoked or expired behind our back (CLI, expiry): the session is over.
    // Only the v1 API's own verdict on the token ends it, never another 401.
    if (res.status === 401 && /error="invalid_token"/.test(res.headers.get('www-authenticate') ?? '')) {
      await sessions.end(session.row);
      await res.body?.cancel();
      throw signedOut();
    }
    const out = new Headers();
    for (const h of PASSED_HEADERS) {
      const v = res.headers.get(h);
      if (v !== null) out.set(h, v);
    }
    const link = res.headers.get('link');
    if (link !== null) out.set('link', link.replaceAll('</api/v1/', `<${prefix}/`));
    out.set('cache-control', 'no-store');
    return new Response(res.body, { status: res.status, headers: out });
  };
}
