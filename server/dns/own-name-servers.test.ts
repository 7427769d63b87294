/**
 * The service's own domains, against the built server: with NAMESERVERS=ns1.ops.example,
 * ns2.ops.example an administrator hosts `ops.example` itself (its apex NS names in-bailiwick
 * servers, whose glue the administrator adds and dig gets with AA), through the API, the PowerDNS
 * API and the CLI; any other account, a team included, is refused, and so is a move that would
 * hand such a zone to one. The catalog zone stays the service's for everyone.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../testing/server-process';
import { startServer, type RunningServer } from '../testing/test-server';

const ENV = { NAMESERVERS: 'ns1.ops.example,ns2.ops.example', HOSTMASTER: 'hostmaster.mail-ops.example', CATALOG_ZONE: 'catalog.ops.example' };

let s: RunningServer;
let alice: string;
let adminToken: string;

/** A request with one of the users' tokens (s.api is admin's). */
const as = (token: string, method: string, url: string, body?: unknown) =>
  fetch(`${s.http}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const pdnsCreate = (token: string, name: string) =>
  fetch(`${s.http}/api/v1/servers/localhost/zones`, {
    method: 'POST',
    headers: { 'X-API-Key': token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${name}.`, kind: 'Native' }),
  });
const message = async (res: Response) => ((await res.json()) as { error: { message: string; fields?: Record<string, string> } }).error;

/** The CLI with the server's configuration (it reads NAMESERVERS like the server). */
function runCli(...args: string[]): string[] {
  const saved = { ...process.env };
  Object.assign(process.env, ENV);
  try {
    return cli(s.dir, ...args);
  } finally {
    for (const k of Object.keys(ENV)) if (saved[k] === undefined) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

beforeAll(async () => {
  s = await startServer(ENV);
  cli(s.dir, 'users', 'add', 'alice');
  alice = cli(s.dir, 'tokens', 'create', 'alice').at(-1)!;
  adminToken = cli(s.dir, 'tokens', 'create', 'admin').at(-1)!;
});
afterAll(() => s?.stop());

describe('an administrator hosts the zone of its own name servers', () => {
  it('creates ops.example, adds the glue of ns1 and ns2, and dig gets them with AA', async () => {
    const created = await s.api('POST', '/domains', { name: 'ops.example' });
    expect(created.status, await created.clone().text()).toBe(201);
    const rrsets = [
      { name: 'ns1', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.53'] },
      { name: 'ns1', record_type: 'AAAA', changetype: 'REPLACE', records: ['2001:db8::53'] },
      { name: 'ns2', record_type: 'A', changetype: 'REPLACE', records: ['198.51.100.53'] },
    ];
    const glue = await s.api('PATCH', '/domains/ops.example/rrsets', { rrsets });
    expect(glue.status, await glue.clone().text()).toBe(200);

    const a = await s.dig('+norec', 'ns1.ops.example', 'A');
    expect(a).toMatch(/status: NOERROR/);
    expect(a).toMatch(/flags: qr aa/);
    expect(a).toMatch(/ns1\.ops\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.53/);
    expect(await s.dig('+norec', 'ns2.ops.example', 'A')).toMatch(/flags: qr aa[^;]*;[\s\S]*ns2\.ops\.example\.\s+\d+\s+IN\s+A\s+198\.51\.100\.53/);
    // The apex NS set names the in-bailiwick servers, and the answer carries their glue.
    const ns = await s.dig('+norec', 'ops.example', 'NS');
    expect(ns).toMatch(/flags: qr aa/);
    expect(ns).toMatch(/ops\.example\.\s+\d+\s+IN\s+NS\s+ns1\.ops\.example\./);
    expect(ns).toMatch(/ADDITIONAL SECTION:[\s\S]*ns1\.ops\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.53/);
    expect(ns).toMatch(/ns1\.ops\.example\.\s+\d+\s+IN\s+AAAA\s+2001:db8::53/);
  });

  it('through the PowerDNS API and the CLI too', async () => {
    expect((await pdnsCreate(adminToken, 'mail-ops.example')).status).toBe(201);
    const file = path.join(s.dir, 'lab.zone');
    writeFileSync(file, 'www 300 IN A 192.0.2.80\n');
    expect(runCli('zones', 'import', 'admin', 'lab.mail-ops.example', file).join('\n')).toMatch(/created lab\.mail-ops\.example for admin/);
    const records = (await (await s.api('GET', '/domains/lab.mail-ops.example/records')).json()) as Array<{ content: string }>;
    expect(records.map((r) => r.content)).toContain('192.0.2.80');
  });

  it('the catalog zone is the service’s own, administrators included', async () => {
    const res = await s.api('POST', '/domains', { name: 'catalog.ops.example' });
    expect(res.status).toBe(409);
    expect((await message(res)).message).toMatch(/catalog zone/);
  });
});

describe('no other account may', () => {
  it('a user is refused on the API, the PowerDNS API and the CLI, naming why', async () => {
    for (const name of ['tenant.mail-ops.example', 'ops2.mail-ops.example']) {
      const res = await as(alice, 'POST', '/domains', { name });
      expect(res.status).toBe(409);
      const error = await message(res);
      expect(error.fields!.name).toMatch(/this service uses for its own name servers.*only an administrator may hold it/);
    }
    const pdns = await pdnsCreate(alice, 'x.mail-ops.example');
    expect(pdns.status).toBe(409);
    expect(await pdns.text()).toMatch(/only an administrator may hold it/);
    const file = path.join(s.dir, 'alice.zone');
    writeFileSync(file, 'www 300 IN A 192.0.2.81\n');
    expect(() => runCli('zones', 'import', 'alice', 'alice.mail-ops.example', file)).toThrow(/only an administrator may hold it/);
    expect((await as(alice, 'GET', '/domains/alice.mail-ops.example')).status).toBe(404);
  });

  it('nor a team, even an administrator’s: created in one or moved into one', async () => {
    expect((await s.api('POST', '/teams', { name: 'netops' })).status).toBe(201);
    const inTeam = await s.api('POST', '/domains', { name: 'team.mail-ops.example', team: 'netops' });
    expect(inTeam.status).toBe(409);
    expect((await message(inTeam)).message).toMatch(/not a team's/);
    const move = await s.api('PUT', '/domains/ops.example/owner', { team: 'netops' });
    expect(move.status).toBe(409);
    expect((await message(move)).fields!.team).toMatch(/only an administrator may hold it/);
    expect(((await (await s.api('GET', '/domains/ops.example')).json()) as { team?: string | null }).team ?? null).toBeNull();
    // Its other zones move as before.
    expect((await s.api('POST', '/domains', { name: 'elsewhere.test' })).status).toBe(201);
    expect((await s.api('PUT', '/domains/elsewhere.test/owner', { team: 'netops' })).status).toBe(200);
  });
});
