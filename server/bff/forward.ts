/**
 * Forwards the SPA's data calls (`/bff/api/<path>`) to the public API (`/api/v1/<path>`) in
 * process, with the session's token as the bearer. Status, error body and pagination
 * headers pass through unchanged, so the SPA sees exactly what an API client sees.
 */
import type { Context } from 'hono';
import { DASHBOARD_HEADER, DASHBOARD_MARK } from '../dashboard-mark';
import type { BffEnv } from './guard';
import { signedOut } from './errors';
import type { Sessions } from './sessions';

export type ApiFetch = (req: Request) => Response | Promise<Response>;

const PASSED_HEADERS = ['content-type', 'content-disposition', 'etag', 'x-total-count', 'x-page', 'x-per-page', 'x-request-id', 'retry-after'];

export function forwarder(apiFetch: ApiFetch, sessions: Sessions, prefix = '/bff/api') {
  return async (c: Context<BffEnv>): Promise<Response> => {
    const session = c.get('session');
    const url = new URL(c.req.url);
    const rest = url.pathname.slice(prefix.length) || '/';
    url.pathname = `/api/v1${rest}`;
    // The session's token is the only credential the API may see.
    url.searchParams.delete('apikey');
    const headers = new Headers({ authorization: `Bearer ${session.token}`, accept: 'application/json', 'x-request-id': c.get('requestId'), [DASHBOARD_HEADER]: DASHBOARD_MARK });
    for (const h of ['content-type', 'content-length', 'if-match']) {
      const v = c.req.header(h);
      if (v !== undefined) headers.set(h, v);
    }
    const method = c.req.method;
    const hasBody = method !== 'GET' && method !== 'HEAD' && c.req.raw.body !== null;
    const res = await apiFetch(
      new Request(url, { method, headers, body: hasBody ? c.req.raw.body : undefined, ...(hasBody ? { duplex: 'half' } : {}) } as RequestInit),
    );
    if (res.status === 401) {
      // The token was revoked or expired behind our back (CLI, expiry): the session is over.
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
