/**
 * The admin CLI's TSIG keys and scoped tokens against the real data dir while the server runs:
 * the key's -y argument alone on the last line, the API sees the keys at once, revocation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from '../testing/server-process';

let server: ServerProcess;
let token: string;
beforeAll(async () => {
  server = await startServer();
  cli(server.dataDir, 'users', 'add', 'carol');
  token = cli(server.dataDir, 'tokens', 'create', 'carol').at(-1)!;
});
afterAll(() => server.stop());

const api = async (path: string, t = token) => fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${t}` } });

describe('tsig', () => {
  it('creates a scoped key, printing algorithm:name:secret alone on the last line; the API lists it without the secret', async () => {
    const lines = cli(server.dataDir, 'tsig', 'create', 'carol', 'acme-key', '--zones', 'example.com', '--names', '_acme-challenge,_acme-challenge.*', '--types', 'TXT');
    const last = lines.at(-1)!;
    expect(last).toMatch(/^hmac-sha256:acme-key:[A-Za-z0-9+/]{43}=$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(last.split(':')[2]);
    const listed = await (await api('/tsig-keys')).json();
    expect(listed).toEqual([
      { name: 'acme-key', algorithm: 'hmac-sha256', scope: { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] }, created_at: expect.any(String) },
    ]);
    expect(JSON.stringify(listed)).not.toContain(last.split(':')[2]);

    const sha512 = cli(server.dataDir, 'tsig', 'create', 'carol', 'xfr.key', '--algorithm', 'hmac-sha512', '--read-only').at(-1)!;
    expect(sha512).toMatch(/^hmac-sha512:xfr\.key:/);
    const rows = cli(server.dataDir, 'tsig', 'list', 'carol').map((l) => JSON.parse(l));
    expect(rows.map((r: { name: string; scope: object }) => [r.name, r.scope])).toEqual([
      ['acme-key', { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] }],
      ['xfr.key', { read_only: true }],
    ]);

    expect(cli(server.dataDir, 'tsig', 'revoke', 'xfr.key')).toEqual(['revoked TSIG key xfr.key']);
    expect((await (await api('/tsig-keys')).json()).map((k: { name: string }) => k.name)).toEqual(['acme-key']);
  });

  it('explains bad input and exits non-zero', () => {
    expect(() => cli(server.dataDir, 'tsig', 'create', 'carol', 'acme-key')).toThrow(/already exists/);
    expect(() => cli(server.dataDir, 'tsig', 'create', 'carol', 'k2', '--algorithm', 'hmac-md5')).toThrow(/algorithm: must be one of hmac-sha256/);
    expect(() => cli(server.dataDir, 'tsig', 'create', 'carol', 'k3', '--zones', 'nope')).toThrow(/scope\.zones\.0: must have at least two labels/);
    expect(() => cli(server.dataDir, 'tsig', 'create', 'nobody', 'k4')).toThrow(/no user named nobody/);
    expect(() => cli(server.dataDir, 'tsig', 'revoke', 'missing')).toThrow(/no TSIG key named missing/);
  });
});

describe('tokens with a scope', () => {
  it('mints a read-only token limited to client networks, and lists its scope', async () => {
    const t = cli(server.dataDir, 'tokens', 'create', 'carol', '--label', 'ro', '--read-only', '--allowed-ips', '127.0.0.0/8').at(-1)!;
    expect((await api('/ips', t)).status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/domains`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: '{"name":"ro.example"}' });
    expect(res.status).toBe(403);
    const other = cli(server.dataDir, 'tokens', 'create', 'carol', '--allowed-ips', '192.0.2.0/24').at(-1)!;
    expect((await api('/ips', other)).status).toBe(403);
    const listed = cli(server.dataDir, 'tokens', 'list', 'carol').map((l) => JSON.parse(l));
    expect(listed.map((r: { label: string; scope: object }) => [r.label, r.scope])).toEqual([
      ['', {}],
      ['ro', { read_only: true, allowed_ips: ['127.0.0.0/8'] }],
      ['', { allowed_ips: ['192.0.2.0/24'] }],
    ]);
  });

  it('never logs a TSIG secret', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const secret = cli(server.dataDir, 'tsig', 'create', 'carol', 'quiet-key').at(-1)!.split(':')[2]!;
    await api('/tsig-keys');
    expect(server.lines.join('\n')).not.toContain(secret);
  });
});
