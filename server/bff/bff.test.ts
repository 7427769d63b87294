import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Browser, createHarness, ORIGIN, type Harness } from '../testing/bff-harness';
import { hashSessionSecret } from '../services/identity/seal';
import { WRONG_CREDENTIALS } from './password-sign-in';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ sessionTimes: { idleMs: 30 * 60_000, absoluteMs: 8 * 3600_000 } });
  await h.services.accounts.addUser('alice', 'password123');
});
afterEach(() => h.close());

async function signedIn(): Promise<Browser> {
  const b = new Browser(h);
  expect((await b.signIn('alice', 'password123')).status).toBe(200);
  return b;
}

describe('sign-in', () => {
  it('gives the browser only an HttpOnly, SameSite=Strict session cookie and never the token', async () => {
    const b = new Browser(h);
    const res = await b.signIn('Alice', 'password123');
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^zd_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here; see the HTTPS test
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['csrf_token', 'enrolment_required', 'expires_at', 'password_change_required', 'username']);
    expect(body.enrolment_required).toBe(false);
    expect(body.username).toBe('alice');
    // The token exists server-side only: sealed in the database, not the cookie.
    const [token] = await h.services.accounts.listTokens((await h.services.accounts.userByName('alice')).id);
    expect(token!.label).toBe('dashboard session');
    const row = await h.services.store.sessions.byIdHash(hashSessionSecret(b.cookie!.split('=')[1]!));
    expect(row!.token_sealed).not.toMatch(/^zd_/);
  });

  it('marks the cookie Secure with the __Host- prefix under HTTPS', async () => {
    const res = await h.fetch('https://localhost/bff/sign-in', {
      method: 'POST',
      headers: { origin: 'https://localhost', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'password123' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^__Host-zd_session=.*Secure/);
  });

  it('answers a wrong password and an unknown user with the same generic message', async () => {
    const b = new Browser(h);
    const wrong = await b.signIn('alice', 'nope-nope');
    const unknown = await b.signIn('mallory', 'password123');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [w, u] = [await wrong.json(), await unknown.json()];
    expect(w).toEqual({ error: { status: 401, code: 'invalid_credentials', message: WRONG_CREDENTIALS } });
    expect(u).toEqual(w);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('slows down repeated failures, then lets the right password in once the wait is over', async () => {
    const b = new Browser(h);
    for (let i = 0; i < 5; i++) expect((await b.signIn('alice', `wrong${i}`)).status).toBe(401);
    const blocked = await b.signIn('alice', 'password123');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect((await blocked.json()).error.message).toMatch(/Too many failed sign-ins/);
    h.clock.now += 1000;
    expect((await b.signIn('alice', 'wrong-again')).status).toBe(401);
    h.clock.now += 1000; // the wait doubled to 2 s
    expect((await b.signIn('alice', 'password123')).status).toBe(429);
    h.clock.now += 1000;
    expect((await b.signIn('alice', 'password123')).status).toBe(200);
  });

  it('issues a new session id at every sign-in and ends the one the browser held', async () => {
    const b = await signedIn();
    const first = b.cookie;
    expect((await b.signIn('alice', 'password123')).status).toBe(200);
    expect(b.cookie).not.toBe(first);
    const stale = await h.fetch('/bff/session', { headers: { cookie: first! } });
    expect(stale.status).toBe(401);
  });

  it('refuses a sign-in posted from another origin', async () => {
    const res = await h.fetch('/bff/sign-in', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'password123' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('csrf');
  });
});

describe('the session', () => {
  it('is required: without it every BFF data call is 401 and says so', async () => {
    for (const url of ['/bff/session', '/bff/api/domains', '/bff/ip-usage']) {
      const res = await h.fetch(url);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('signed_out');
    }
  });

  it('survives a restart of the server', async () => {
    const b = await signedIn();
    await h.restart();
    const res = await b.send('GET', '/bff/session');
    expect(res.status).toBe(200);
    expect((await res.json()).username).toBe('alice');
  });

  it('ends after the idle period, and its token with it', async () => {
    const b = await signedIn();
    h.clock.now += 29 * 60_000;
    expect((await b.send('GET', '/bff/session')).status).toBe(200); // use keeps it alive
    h.clock.now += 29 * 60_000;
    expect((await b.send('GET', '/bff/session')).status).toBe(200);
    h.clock.now += 31 * 60_000;
    expect((await b.send('GET', '/bff/session')).status).toBe(401);
    expect(await h.services.accounts.listTokens(1)).toEqual([]);
  });

  it('ends at its absolute expiry even when in use', async () => {
    const b = await signedIn();
    for (let i = 0; i < 16; i++) {
      h.clock.now += 29 * 60_000;
      await b.send('GET', '/bff/session');
    }
    expect(h.clock.now - Date.now()).toBeGreaterThan(7.5 * 3600_000);
    h.clock.now += 29 * 60_000;
    expect((await b.send('GET', '/bff/session')).status).toBe(401);
  });
});

describe('forwarding to the API', () => {
  it('passes status, body and pagination headers through, with links under /bff/api', async () => {
    const b = await signedIn();
    for (const name of ['a.example', 'b.example', 'c.example']) expect((await b.send('POST', '/bff/api/domains', { name })).status).toBe(201);
    const res = await b.send('GET', '/bff/api/domains?per_page=2');
    expect(res.status).toBe(200);
    expect((await res.json()).map((d: { name: string }) => d.name)).toEqual(['a.example', 'b.example']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('link')).toBe('</bff/api/domains?per_page=2&page=2>; rel="next"');
  });

  it("passes the API's error body through, fields included", async () => {
    const b = await signedIn();
    await b.send('POST', '/bff/api/domains', { name: 'example.com' });
    const res = await b.send('PUT', '/bff/api/domains/example.com', { retry_interval: 5 });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('invalid_field');
    expect(body.error.fields.retry_interval).toMatch(/from 600 to 3600/);
  });

  it('requires the CSRF header and a same-origin Origin on every state-changing call', async () => {
    const b = await signedIn();
    const noToken = await b.send('POST', '/bff/api/domains', { name: 'x.example' }, { 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    const wrongToken = await b.send('POST', '/bff/api/domains', { name: 'x.example' }, { 'x-csrf-token': 'guess' });
    expect(wrongToken.status).toBe(403);
    const foreign = await b.send('POST', '/bff/api/domains', { name: 'x.example' }, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const crossSite = await b.send('DELETE', '/bff/api/domains/x.example', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await b.send('GET', '/bff/api/domains')).headers.get('x-total-count')).toBe('0');
  });

  it('carries a zone file both ways: a text/dns body in, and the download with its file name out', async () => {
    const b = await signedIn();
    await b.send('POST', '/bff/api/domains', { name: 'example.com' });
    const headers = { cookie: b.cookie!, origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-csrf-token': b.csrf!, 'content-type': 'text/dns; charset=utf-8' };
    const put = (query: string, body: string, extra: Record<string, string> = {}) => h.fetch(`/bff/api/domains/example.com/zone${query}`, { method: 'POST', headers: { ...headers, ...extra }, body });
    const preview = await put('?mode=merge&dry_run=true', 'www 300 IN A 192.0.2.1\n');
    expect(preview.status, await preview.clone().text()).toBe(200);
    const { change } = await preview.json();
    expect(change).toMatchObject({ id: null, source: 'import', actor: { username: 'alice', credential: 'session' }, added: [{ name: 'www', content: '192.0.2.1' }] });
    expect(preview.headers.get('etag')).toBe(`"${change.serial_before}"`);
    const bad = await put('', 'www IN A 192.0.2.300\n');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('line 1');
    const stale = await put('', 'www 300 IN A 192.0.2.1\n', { 'if-match': `"${change.serial_before - 1}"` });
    expect(stale.status).toBe(412);
    expect((await put('', 'www 300 IN A 192.0.2.1\n', { 'if-match': `"${change.serial_before}"` })).status).toBe(200);

    const file = await b.send('GET', '/bff/api/domains/example.com/zone');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/dns/);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="example.com.zone"');
    expect(await file.text()).toMatch(/^www\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
  });

  it('ends the session when the API no longer accepts its token', async () => {
    const b = await signedIn();
    const [token] = await h.services.accounts.listTokens(1);
    await h.services.accounts.revokeToken(token!.id);
    expect((await b.send('GET', '/bff/api/ips')).status).toBe(401);
    expect((await b.send('GET', '/bff/session')).status).toBe(401);
  });
});

describe('sign-out', () => {
  it('revokes the token and the session and clears the cookie', async () => {
    const b = await signedIn();
    const cookie = b.cookie!;
    const res = await b.send('POST', '/bff/sign-out');
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/^zd_session=;.*Max-Age=0/);
    expect(await h.services.accounts.listTokens(1)).toEqual([]);
    expect((await h.fetch('/bff/session', { headers: { cookie } })).status).toBe(401);
  });

  it('needs the CSRF token, so another site cannot sign the user out', async () => {
    const b = await signedIn();
    expect((await b.send('POST', '/bff/sign-out', undefined, { 'x-csrf-token': 'nope' })).status).toBe(403);
    expect((await b.send('POST', '/bff/sign-out', undefined, { origin: ORIGIN.replace('localhost', 'evil.example') })).status).toBe(403);
    expect((await b.send('GET', '/bff/session')).status).toBe(200);
  });
});

describe('IP usage', () => {
  it("lists, per IP, the user's A and AAAA records that point into it", async () => {
    const alice = await h.services.accounts.userByName('alice');
    const net = await h.services.ips.add(alice.id, '198.51.100.0/24');
    const v6 = await h.services.ips.add(alice.id, '2001:db8::/64', false);
    const b = await signedIn();
    await b.send('POST', '/bff/api/domains', { name: 'example.com' });
    await b.send('POST', '/bff/api/domains/example.com/records', { name: 'www', record_type: 'A', content: '198.51.100.7' });
    await b.send('POST', '/bff/api/domains/example.com/records', { name: 'off', record_type: 'A', content: '192.0.2.1' });
    await b.send('POST', '/bff/api/domains/example.com/records', { name: '@', record_type: 'AAAA', content: '2001:db8::5' });
    const res = await b.send('GET', '/bff/ip-usage');
    expect(res.status).toBe(200);
    const usage = await res.json();
    expect(usage).toEqual([
      { ip_id: net.id, total: 1, records: [expect.objectContaining({ domain: 'example.com', fqdn: 'www.example.com', record_type: 'A', content: '198.51.100.7' })] },
      { ip_id: v6.id, total: 1, records: [expect.objectContaining({ fqdn: 'example.com', record_type: 'AAAA', content: '2001:db8::5' })] },
    ]);
  });
});
