/** What the API itself enforces of a token's scope: client networks, read-only, credentials, and the zone of a path. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScopeInput } from '../../core/scope';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  for (const name of ['example.com', 'example.org', 'sub.example.com']) {
    expect((await t.request('POST', '/api/v1/domains', { body: { name } })).status).toBe(201);
  }
  await t.user('bob');
});
afterEach(() => t.close());

async function scoped(scope: ScopeInput): Promise<string> {
  const res = await t.request('POST', '/api/v1/tokens', { token: alice, body: { label: 'scoped', scope } });
  expect(res.status).toBe(201);
  return (await res.json()).token;
}

async function expect403(res: Response, message: RegExp) {
  expect(res.status).toBe(403);
  expect((await res.json()).error).toMatchObject({ status: 403, code: 'forbidden', message: expect.stringMatching(message) });
}

describe('allowed_ips', () => {
  it('admits requests from inside the networks only, IPv4-mapped addresses included', async () => {
    const token = await scoped({ allowed_ips: ['192.0.2.0/24', '2001:db8::/32'] });
    for (const address of ['192.0.2.9', '::ffff:192.0.2.9', '2001:db8::53']) {
      expect((await t.request('GET', '/api/v1/ips', { token, address })).status).toBe(200);
    }
    await expect403(await t.request('GET', '/api/v1/ips', { token, address: '198.51.100.1' }), /may not be used from this address/);
    // An in-process call has no address: it does not pass for one inside the networks.
    expect((await t.request('GET', '/api/v1/ips', { token })).status).toBe(403);
    // An unrestricted token is not affected.
    expect((await t.request('GET', '/api/v1/ips', { token: alice, address: '198.51.100.1' })).status).toBe(200);
  });
});

describe('read_only', () => {
  it('reads, and answers 403 to every write, changing nothing', async () => {
    const token = await scoped({ read_only: true });
    expect((await t.request('GET', '/api/v1/domains/example.com', { token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/domains/example.com/records', { token })).status).toBe(200);
    await expect403(await t.request('POST', '/api/v1/domains/example.com/records', { token, body: { name: 'www', record_type: 'A', content: '192.0.2.1' } }), /read-only/);
    await expect403(await t.request('PUT', '/api/v1/domains/example.com', { token, body: { minimum_ttl: 600 } }), /read-only/);
    await expect403(await t.request('DELETE', '/api/v1/domains/example.org', { token }), /read-only/);
    expect(await (await t.request('GET', '/api/v1/domains/example.com/records?name=www')).json()).toEqual([]);
    expect((await t.request('GET', '/api/v1/domains/example.org')).status).toBe(200);
  });
});

describe('credentials', () => {
  it('a scoped token can neither mint a wider token or a TSIG key nor revoke one', async () => {
    const token = await scoped({ zones: ['example.com'] });
    await expect403(await t.request('POST', '/api/v1/tokens', { token, body: { label: 'wider' } }), /cannot create or revoke/);
    await expect403(await t.request('POST', '/api/v1/tsig-keys', { token, body: { name: 'k' } }), /cannot create or revoke/);
    await expect403(await t.request('DELETE', '/api/v1/tokens/1', { token }), /cannot create or revoke/);
    expect((await t.request('GET', '/api/v1/tokens', { token })).status).toBe(200);
  });
});

describe('zones', () => {
  it('reaches its zones, names inside them, and nothing else', async () => {
    const token = await scoped({ zones: ['example.com'] });
    expect((await t.request('GET', '/api/v1/domains/example.com', { token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/domains/example.com.json', { token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/domains/EXAMPLE.com/records', { token })).status).toBe(200);
    const www = await t.request('POST', '/api/v1/domains/example.com/records', { token, body: { name: 'www', record_type: 'A', content: '192.0.2.1' } });
    expect(www.status).toBe(200);
    await expect403(await t.request('GET', '/api/v1/domains/example.org', { token }), /does not include the zone example\.org/);
    await expect403(await t.request('POST', '/api/v1/domains/example.org/records', { token, body: { name: 'www', record_type: 'A', content: '192.0.2.1' } }), /example\.org/);
    // A zone of its own below a scoped one is another zone.
    await expect403(await t.request('GET', '/api/v1/domains/sub.example.com', { token }), /sub\.example\.com/);
    await expect403(await t.request('GET', '/api/v1/domains/www.sub.example.com/records', { token }), /sub\.example\.com/);
    // A name inside a scoped zone is reached: the records at it, named relative to it.
    const inside = await t.request('GET', '/api/v1/domains/www.example.com/records', { token });
    expect(inside.status).toBe(200);
    expect(await inside.json()).toMatchObject([{ name: '@', record_type: 'A', content: '192.0.2.1', fqdn: 'www.example.com' }]);
    await expect403(await t.request('POST', '/api/v1/domains', { token, body: { name: 'new.example' } }), /cannot create zones/);
    // Someone else's zone, or none at all: 404 as for anyone.
    expect((await t.request('GET', '/api/v1/domains/nothing.example', { token })).status).toBe(404);
  });

  it('a names/types scope may not change the zone itself', async () => {
    const token = await scoped({ zones: ['example.com'], names: ['_acme-challenge'], types: ['TXT'] });
    expect((await t.request('GET', '/api/v1/domains/example.com', { token })).status).toBe(200);
    await expect403(await t.request('PUT', '/api/v1/domains/example.com', { token, body: { dnssec_enabled: true } }), /not the zone itself/);
    await expect403(await t.request('DELETE', '/api/v1/domains/example.com', { token }), /not the zone itself/);
    expect((await (await t.request('GET', '/api/v1/domains/example.com')).json()).dnssec_enabled).toBe(false);
  });

  it('carries the scope on the principal for the record rules', async () => {
    const token = await scoped({ zones: ['example.com'], names: ['_acme-challenge.*'], types: ['TXT'], read_only: false });
    const principal = await t.services.accounts.authenticate(token);
    expect(principal?.scope).toEqual({ zones: ['example.com'], names: ['_acme-challenge.*'], types: ['TXT'] });
    expect((await t.services.accounts.authenticate(alice))?.scope).toEqual({});
  });
});

describe('names and types', () => {
  it('lets an ACME token write its TXT records and nothing else, each refused write changing nothing', async () => {
    const token = await scoped({ zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] });
    const post = (domain: string, body: object) => t.request('POST', `/api/v1/domains/${domain}/records`, { token, body });
    expect((await post('example.com', { name: '_acme-challenge', record_type: 'TXT', content: 'apex-proof' })).status).toBe(200);
    // The name given is relative to the domain in the path: _acme-challenge.www.
    expect((await post('www.example.com', { name: '_acme-challenge', record_type: 'TXT', content: 'www-proof' })).status).toBe(200);
    await expect403(await post('example.com', { name: 'www', record_type: 'TXT', content: 'x' }), /may not change www TXT/);
    await expect403(await post('example.com', { name: '_acme-challenge', record_type: 'A', content: '192.0.2.1' }), /may not change _acme-challenge A/);
    const patch = await t.request('PATCH', '/api/v1/domains/example.com/rrsets', {
      token,
      body: {
        rrsets: [
          { name: '_acme-challenge', record_type: 'TXT', changetype: 'REPLACE', records: ['ok'] },
          { name: 'mail', record_type: 'TXT', changetype: 'ADD', records: ['no'] },
        ],
      },
    });
    expect(patch.status).toBe(403);
    const records = await (await t.request('GET', '/api/v1/domains/example.com/records')).json();
    expect(records.map((r: { name: string; content: string }) => `${r.name} ${r.content}`).filter((x: string) => !x.startsWith('@'))).toEqual([
      '_acme-challenge apex-proof',
      '_acme-challenge.www www-proof',
    ]);
  });
});
