/**
 * TRUST_PROXY and the Host allow-list: a listed proxy's X-Forwarded-*
 * headers say who the client is and at which site the dashboard is open; anyone else's are
 * ignored, so a client cannot claim an address (a token's allowed_ips) or a site (the Origin
 * check). Without PUBLIC_URL, the dashboard answers only at an IP literal, localhost, or a
 * name in ALLOWED_HOSTS: a DNS-rebinding page on its own name is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createHarness, type Harness } from '../testing/bff-harness';

let app: TestApp;
afterEach(() => app?.close());

const signIn = (url: string, address: string, headers: Record<string, string>) =>
  app.request('POST', url, { token: null, address, body: { username: 'alice', password: 'password123' }, headers: { 'sec-fetch-site': 'same-origin', ...headers } });

const code = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('TRUST_PROXY', () => {
  it("a listed proxy's X-Forwarded-Proto/Host make the site https://dns.example.com; the same headers from anyone else do not", async () => {
    app = await createTestApp({ TRUST_PROXY: '10.0.0.1', ALLOWED_HOSTS: 'dns.example.com' });
    await app.user('alice');
    const site = { origin: 'https://dns.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dns.example.com', 'x-forwarded-for': '203.0.113.5' };
    const ok = await signIn('/bff/sign-in', '10.0.0.1', site);
    expect(ok.status).toBe(200);
    // The browser is on HTTPS: the cookie is Secure and pinned to the host.
    expect(ok.headers.get('set-cookie')).toMatch(/^__Host-zd_session=.*Secure/);
    // Not from the proxy: the headers are only words, the site stays the request's own.
    const spoofed = await signIn('/bff/sign-in', '198.51.100.7', site);
    expect(spoofed.status).toBe(403);
    expect(await code(spoofed)).toBe('csrf');
  });

  it('a token limited to 203.0.113.0/24 works through the proxy for that client, and a forged X-Forwarded-For gains nothing', async () => {
    app = await createTestApp({ TRUST_PROXY: '10.0.0.0/24' });
    await app.user('alice');
    const user = (await app.services.store.users.byUsername('alice'))!;
    const { token } = await app.services.accounts.createToken(user.id, 'office', null, { allowed_ips: ['203.0.113.0/24'] });
    const get = (address: string, xff?: string) => app.request('GET', '/api/v1/domains', { token, address, headers: xff ? { 'x-forwarded-for': xff } : {} });
    // Through two of our proxies: the client is the first hop they did not add.
    expect((await get('10.0.0.1', '203.0.113.5, 10.0.0.2')).status).toBe(200);
    // The client put 203.0.113.5 in front itself: the proxy appended its real address, which is not allowed.
    expect((await get('10.0.0.1', '203.0.113.5, 198.51.100.7')).status).toBe(403);
    // Straight from outside, claiming the allowed address: the header is ignored.
    expect((await get('198.51.100.7', '203.0.113.5')).status).toBe(403);
    // A proxy that sends garbage: the proxy itself is the client, not allowed.
    expect((await get('10.0.0.1', 'not-an-address')).status).toBe(403);
  });

  it('a bad entry stops the start naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1/8' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual([
      { address: '10.0.0.0', cidr: 8 },
      { address: '::1', cidr: 128 },
    ]);
  });
});

describe('the Host allow-list without PUBLIC_URL', () => {
  let h: Harness | undefined;
  afterEach(() => h?.close());
  const at = (host: string) =>
    h!.fetch(`http://${host}/bff/sign-in`, {
      method: 'POST',
      headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'password123' }),
    });

  it('a rebinding name is refused, saying what to set; IP literals and localhost work', async () => {
    h = await createHarness();
    await h.services.accounts.addUser('alice', 'password123');
    const refused = await at('attacker.example:8080');
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('host_not_allowed');
    expect(body.error.message).toMatch(/PUBLIC_URL/);
    expect((await at('127.0.0.1:8080')).status).toBe(200);
    expect((await at('[::1]:8080')).status).toBe(200);
    expect((await at('localhost:8080')).status).toBe(200);
  });

  it('ALLOWED_HOSTS admits a name and the names below a *. entry, nothing else', async () => {
    h = await createHarness({ allowedHosts: ['dns.example.com', '*.example.net'] });
    await h.services.accounts.addUser('alice', 'password123');
    expect((await at('dns.example.com')).status).toBe(200);
    expect((await at('a.example.net')).status).toBe(200);
    expect((await at('example.net.attacker.example')).status).toBe(403);
    expect((await at('badexample.net')).status).toBe(403);
    expect(loadConfig({ ALLOWED_HOSTS: 'dns.example.com, *.Example.NET.' }).allowedHosts).toEqual(['dns.example.com', '*.example.net']);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'http://dns.example.com' })).toThrow(/ALLOWED_HOSTS/);
  });
});
