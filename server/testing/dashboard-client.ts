/**
 * A browser signed in to the dashboard of a test app (server/testing/test-app.ts): it keeps the
 * session cookie, sends Origin and the CSRF token, and comes from one address with one user agent,
 * so tests can see what the BFF passes on to the API.
 */
import type { TestApp } from './test-app';

export interface DashboardBrowser {
  /** The sign-in's status (200 when signed in). */
  status: number;
  /** The sign-in's error code when it failed (e.g. second_factor_required). */
  error?: string;
  /** Sends a request to the BFF as this browser (`/bff/api/…`, `/bff/session`, `/bff/sign-out`). */
  send(method: string, path: string, body?: unknown): Promise<Response>;
}

/** `from.code`: a second factor's code, sent with the password. */
export async function dashboardSignIn(t: TestApp, username: string, password: string, from: { address?: string; userAgent?: string; code?: string } = {}): Promise<DashboardBrowser> {
  const headers = (extra: Record<string, string> = {}) => ({ origin: 'http://localhost', 'sec-fetch-site': 'same-origin', ...(from.userAgent ? { 'user-agent': from.userAgent } : {}), ...extra });
  const res = await t.request('POST', '/bff/sign-in', {
    token: null,
    body: { username, password, ...(from.code !== undefined ? { code: from.code } : {}) },
    headers: headers(),
    address: from.address,
  });
  let cookie = '';
  let csrf = '';
  if (res.ok) {
    cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
  }
  const error = res.ok ? undefined : ((await res.json()) as { error: { code: string } }).error.code;
  return {
    status: res.status,
    error,
    send: (method, path, body) => t.request(method, path, { token: null, body, headers: headers({ cookie, 'x-csrf-token': csrf }), address: from.address }),
  };
}
