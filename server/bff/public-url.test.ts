/**
 * Behind a TLS-terminating reverse proxy: Node sees http://internal-host,
 * browsers see PUBLIC_URL. The Origin check and the session cookie follow PUBLIC_URL, so the
 * dashboard works there, and a page on the internal origin (or a rebinding host) is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createHarness, type Harness } from '../testing/bff-harness';

const PUBLIC = 'https://dns.example.com';
let h: Harness;
afterEach(() => h?.close());

const signIn = (origin: string) =>
  h.fetch('http://10.0.0.5:8080/bff/sign-in', {
    method: 'POST',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: 'password123' }),
  });

describe('PUBLIC_URL', () => {
  it("a sign-in from the public origin works over the proxy's plain HTTP, with the __Host- Secure cookie; the internal origin is refused", async () => {
    h = await createHarness({ publicOrigin: PUBLIC });
    await h.services.accounts.addUser('alice', 'password123');
    const ok = await signIn(PUBLIC);
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-zd_session=/);
    expect(cookie).toMatch(/Secure/);
    // The session works on the next request, read back under the same name.
    const session = await h.fetch('http://10.0.0.5:8080/bff/session', { headers: { cookie: cookie.split(';')[0]! } });
    expect(session.status).toBe(200);
    const refused = await signIn('http://10.0.0.5:8080');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('csrf');
  });

  it("without it, the request's own origin is the site (as before)", async () => {
    h = await createHarness();
    await h.services.accounts.addUser('alice', 'password123');
    expect((await signIn('http://10.0.0.5:8080')).status).toBe(200);
    expect((await signIn(PUBLIC)).status).toBe(403);
  });

  it('a value with a path, or not http(s), stops the start naming the variable', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://dns.example.com/' }).publicOrigin).toBe(PUBLIC);
    expect(() => loadConfig({ PUBLIC_URL: 'https://dns.example.com/dashboard' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://dns.example.com' })).toThrow(/PUBLIC_URL/);
  });
});
