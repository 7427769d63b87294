/** The app in memory with a user, speaking the PowerDNS API with `X-API-Key`, for the tests beside it. */
import { createTestApp, type TestApp } from './test-app';

export const ZONES = '/api/v1/servers/localhost/zones';

export interface PdnsHarness {
  t: TestApp;
  token: string;
  /** A PowerDNS API call with the user's key (another key, or none with null). */
  call(method: string, path: string, body?: unknown, opts?: { key?: string | null; headers?: Record<string, string>; raw?: BodyInit }): Promise<Response>;
  /** The same call answering status and parsed JSON body (null when there is none). */
  json(method: string, path: string, body?: unknown, opts?: { key?: string | null }): Promise<{ status: number; body: any }>;
}

export async function pdnsHarness(env: Record<string, string> = {}): Promise<PdnsHarness> {
  const t = await createTestApp(env);
  const token = await t.user('alice');
  const call: PdnsHarness['call'] = (method, path, body, opts = {}) => {
    const key = opts.key === undefined ? token : opts.key;
    return t.request(method, path, { token: null, body, raw: opts.raw, headers: { ...(key ? { 'x-api-key': key } : {}), ...opts.headers } });
  };
  return {
    t,
    token,
    call,
    async json(method, path, body, opts) {
      const res = await call(method, path, body, opts);
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : JSON.parse(text) };
    },
  };
}
