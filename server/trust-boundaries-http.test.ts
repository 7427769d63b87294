/**
 * Over HTTP against the built server (`npm start`'s build): the exact
 * requests of the audit, as a hostile tenant sends them with curl. The in-process suite
 * (server/api/trust-boundaries.test.ts) covers the same rules on both stores in depth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from './testing/server-process';

let server: ServerProcess;
let owner: string;
const call = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-api-key': token, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/dns' : 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
const scoped = async (scope: object) => ((await (await call(owner, 'POST', '/api/v1/tokens', { label: 'scoped', scope })).json()) as { token: string }).token;
const zone = async (name: string) => {
  const res = await call(owner, 'GET', `/api/v1/domains/${name}`);
  return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null;
};

beforeAll(async () => {
  server = await startServer();
  cli(server.dataDir, 'users', 'add', 'alice');
  owner = cli(server.dataDir, 'tokens', 'create', 'alice').at(-1)!;
  for (const name of ['alice1.test', 'alice2.test']) expect((await call(owner, 'POST', '/api/v1/domains', { name })).status).toBe(201);
  expect((await call(owner, 'POST', '/api/v1/domains', { name: 'signed.test', dnssec_enabled: true })).status).toBe(201);
});
afterAll(() => server?.stop());

describe('a token scoped to one zone reaches no other zone of its user', () => {
  it('through odd spellings on v1 and PowerDNS ids: 404, and alice2.test is untouched', async () => {
    const only1 = await scoped({ zones: ['alice1.test'] });
    const before = await zone('alice2.test');
    for (const s of ['alice%EF%BC%92.test', 'alice2%E3%80%82test', '%20alice2.test', 'alice2.test..', 'ali%C2%ADce2.test', 'alice2.te%C5%BFt']) {
      expect((await call(only1, 'GET', `/api/v1/domains/${s}/records`)).status, s).toBe(404);
      expect((await call(only1, 'PUT', `/api/v1/domains/${s}`, { refresh_interval: 7200 })).status, s).toBe(404);
      expect((await call(only1, 'DELETE', `/api/v1/domains/${s}`)).status, s).toBe(404);
    }
    expect((await call(only1, 'DELETE', '/api/v1/servers/localhost/zones/alice=EF=BC=92.test.')).status).toBe(404);
    // The plain spelling is the user's zone, outside the token's scope: 403.
    expect((await call(only1, 'DELETE', '/api/v1/domains/alice2.test')).status).toBe(403);
    expect(await zone('alice2.test')).toEqual(before);
  });

  it('a token scoped to sub.alice2.test (not a zone) lists nothing of alice2.test', async () => {
    expect((await call(owner, 'POST', '/api/v1/domains/alice2.test/records', { name: 'a.sub', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
    const sub = await scoped({ zones: ['sub.alice2.test'] });
    expect((await call(sub, 'GET', '/api/v1/domains/sub.alice2.test/records')).status).toBe(403);
  });
});

describe('the documented ACME token (docs/powerdns-api.md) changes records only', () => {
  it('cannot revert DNSSEC away, rewrite SOA timers by import, or delete the zone', async () => {
    const acme = await scoped({ names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] });
    const on = (await (await call(owner, 'GET', '/api/v1/domains/signed.test/changes')).json()) as Array<{ id: number; settings: object }>;
    const created = on.find((c) => 'dnssec_enabled' in c.settings)!;
    expect((await call(owner, 'PUT', '/api/v1/domains/signed.test', { dnssec_enabled: false })).status).toBe(200);
    expect((await call(owner, 'PUT', '/api/v1/domains/signed.test', { dnssec_enabled: true })).status).toBe(200);
    const before = await zone('signed.test');
    const latest = ((await (await call(owner, 'GET', '/api/v1/domains/signed.test/changes')).json()) as Array<{ id: number }>)[0]!;
    for (const id of [latest.id, created.id]) {
      const res = await call(acme, 'POST', `/api/v1/domains/signed.test/changes/${id}/revert`);
      expect(res.status, await res.clone().text()).toBe(403);
    }
    const file = '$ORIGIN signed.test.\n@ 3600 IN SOA a. b. 1 7200 900 1209600 300\n_acme-challenge 60 IN TXT "x"\n';
    const imported = await call(acme, 'POST', '/api/v1/domains/signed.test/zone?mode=merge', file);
    expect(imported.status, await imported.clone().text()).toBe(403);
    expect((await call(acme, 'DELETE', '/api/v1/domains/signed.test')).status).toBe(403);
    expect((await call(acme, 'DELETE', '/api/v1/servers/localhost/zones/signed.test.')).status).toBe(403);
    expect(await zone('signed.test')).toEqual(before);
    expect(before!.dnssec_enabled).toBe(true);
  });
});

describe('a token limited to www cannot take over the names below it', () => {
  it('www NS and www DNAME are 403; www A is allowed', async () => {
    const www = await scoped({ names: ['www'] });
    expect((await call(www, 'POST', '/api/v1/domains/alice1.test/records', { name: 'www', record_type: 'NS', content: 'ns.attacker.example.' })).status).toBe(403);
    expect((await call(www, 'POST', '/api/v1/domains/alice1.test/records', { name: 'www', record_type: 'DNAME', content: 'attacker.example.' })).status).toBe(403);
    expect((await call(www, 'POST', '/api/v1/domains/alice1.test/records', { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
    const records = (await (await call(owner, 'GET', '/api/v1/domains/alice1.test/records?name=www')).json()) as Array<{ record_type: string }>;
    expect(records.map((r) => r.record_type)).toEqual(['A']);
  });
});
