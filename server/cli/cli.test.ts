/** The admin CLI against the real data dir while the server runs: the server sees each change at once. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_SECRETS_KEY } from '../testing/postgres-database';
import { cli, runCli, startServer, tempDataDir, type ServerProcess } from '../testing/server-process';
import { commandsNamed, usage } from './commands';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const ips = (token: string) => fetch(`${server.url}/api/v1/ips`, { headers: { authorization: `Bearer ${token}` } });

describe('admin CLI', () => {
  it('prints the generated admin password once, on the first start, and keeps it in a 0600 file until admin changes it', async () => {
    expect(server.adminPassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const file = path.join(server.dataDir, 'admin-password');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(server.adminPassword);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Admin signs in with it and changes it: the file goes.
    const token = cli(server.dataDir, 'tokens', 'create', 'admin', '--label', 'first-run').at(-1)!;
    const changed = await fetch(`${server.url}/api/v1/account/password`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: server.adminPassword, new_password: 'a new admin password' }),
    });
    expect(changed.status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('adds a user, mints a token, registers IPs, and the running server sees them at once', async () => {
    const added = cli(server.dataDir, 'users', 'add', 'alice', '--password', 'correct horse');
    expect(added).toEqual(['created user alice', 'correct horse']);
    const token = cli(server.dataDir, 'tokens', 'create', 'alice', '--label', 'laptop').at(-1)!;
    expect(token).toMatch(/^zd_[A-Za-z0-9_-]{32}$/);
    expect(await (await ips(token)).json()).toEqual([]);

    const ip = JSON.parse(cli(server.dataDir, 'ips', 'add', 'alice', '198.51.100.0/24')[0]!);
    expect(ip).toEqual({ id: expect.any(Number), address: '198.51.100.0', active: true, cidr: 24, ipv4: true, ipv6: false, first: '198.51.100.0', last: '198.51.100.255' });
    cli(server.dataDir, 'ips', 'add', 'alice', '2001:db8::1', '--inactive');
    const listed = await (await ips(token)).json();
    expect(listed.map((r: { address: string; active: boolean }) => [r.address, r.active])).toEqual([
      ['198.51.100.0', true],
      ['2001:db8::1', false],
    ]);
    expect(cli(server.dataDir, 'ips', 'list', 'alice').map((l) => JSON.parse(l).address)).toEqual(['198.51.100.0', '2001:db8::1']);

    cli(server.dataDir, 'ips', 'remove', String(ip.id));
    expect((await (await ips(token)).json()).length).toBe(1);

    const tokens = cli(server.dataDir, 'tokens', 'list', 'alice').map((l) => JSON.parse(l));
    expect(tokens).toEqual([{ id: expect.any(Number), label: 'laptop', created_at: expect.any(String), last_used_at: expect.any(String), expires_at: null, scope: {} }]);
    cli(server.dataDir, 'tokens', 'revoke', String(tokens[0].id));
    expect((await ips(token)).status).toBe(401);

    // Credentials never reach the log, whichever way they were sent.
    await fetch(`${server.url}/api/v1/ips?apikey=${token}`);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.lines.some((l) => l.includes('"path":"/api/v1/ips"'))).toBe(true);
    expect(server.lines.join('\n')).not.toContain(token);
  }, 120_000);

  it('manages users (--admin, admin on|off, disable, enable): the running server follows at once, and the audit log names the CLI', async () => {
    const api = (path: string, token: string) => fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    // The user the first start made is an administrator.
    const admin = cli(server.dataDir, 'tokens', 'create', 'admin').at(-1)!;
    expect(await (await api('/account', admin)).json()).toMatchObject({ username: 'admin', is_admin: true });

    expect(cli(server.dataDir, 'users', 'add', 'dora', '--admin')[0]).toBe('created administrator dora');
    const dora = cli(server.dataDir, 'tokens', 'create', 'dora').at(-1)!;
    expect((await api('/users', dora)).status).toBe(200);
    expect(cli(server.dataDir, 'users', 'admin', 'dora', 'off')).toEqual(['dora is no longer an administrator']);
    expect((await api('/users', dora)).status).toBe(403);

    cli(server.dataDir, 'users', 'disable', 'dora');
    expect((await api('/ips', dora)).status).toBe(401);
    expect((await (await api('/users?search=dora', admin)).json())[0]).toMatchObject({ username: 'dora', disabled: true, is_admin: false });
    expect(cli(server.dataDir, 'users', 'enable', 'dora')).toEqual(['dora is enabled']);
    expect((await api('/ips', dora)).status).toBe(200);

    const events = (await (await api('/audit?username=dora', admin)).json()) as Array<{ kind: string; actor: unknown }>;
    expect(events.map((e) => e.kind)).toEqual(['user-enabled', 'user-disabled', 'admin-revoked', 'token-created', 'user-created']);
    expect(events.every((e) => JSON.stringify(e.actor) === JSON.stringify({ username: null, credential: 'cli' }))).toBe(true);

    expect(() => cli(server.dataDir, 'users', 'admin', 'dora', 'maybe')).toThrow(/<on\|off> must be on or off/);
    expect(() => cli(server.dataDir, 'users', 'disable', 'nobody')).toThrow(/no user named nobody/);
  }, 60_000);

  // The first start's admin password is asked for a change too: e2e/first-sign-in.spec.ts.
  it('a password it resets is changed at the next dashboard sign-in; one it generates for a new user or is given is kept', async () => {
    const signIn = async (username: string, password: string) => {
      const res = await fetch(`${server.url}/bff/sign-in`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { password_change_required: boolean }).password_change_required;
    };
    const generated = cli(server.dataDir, 'users', 'add', 'gen').at(-1)!;
    expect(await signIn('gen', generated)).toBe(false);
    cli(server.dataDir, 'users', 'add', 'own', '--password', 'my own password');
    expect(await signIn('own', 'my own password')).toBe(false);
    const reset = cli(server.dataDir, 'users', 'passwd', 'own', '--password', 'the admin told me').at(-1)!;
    expect(await signIn('own', reset)).toBe(true);
  });

  it('explains bad input and exits non-zero', () => {
    expect(() => cli(server.dataDir, 'ips', 'add', 'alice', '10.0.0.1/8')).toThrow(/host bits set; the network is 10.0.0.0\/8/);
    expect(() => cli(server.dataDir, 'users', 'add', 'alice')).toThrow(/already exists/);
    expect(() => cli(server.dataDir, 'tokens', 'create', 'nobody')).toThrow(/no user named nobody/);
    expect(() => cli(server.dataDir, 'frobnicate')).toThrow(/unknown command/);
  });
});

describe('admin CLI and its database (no silent new database)', () => {
  it('refuses a DATA_DIR that holds no database, naming the file it looked for and the DATA_DIR, and creates nothing', async () => {
    const dir = path.join(tempDataDir(), 'elsewhere');
    const [add, token] = await Promise.all([runCli(dir, ['users', 'add', 'alice']), runCli(dir, ['tokens', 'create', 'admin'])]);
    for (const r of [add!, token!]) {
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      const db = path.join(dir, 'zonedeck.db');
      expect(r.stderr).toBe(
        `database: ${db} (DATA_DIR=${dir})\nerror: there is no database at ${db} (DATA_DIR=${dir}): set DATA_DIR to the server's data directory, or add --init to create a new, empty database there\n`,
      );
    }
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('creates the database with --init, and later commands use it without', async () => {
    const dir = tempDataDir();
    const first = await runCli(dir, ['users', 'add', 'erin', '--password', 'a long password', '--init']);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('created user erin\na long password\n');
    expect(first.stderr).toBe(`database: ${path.join(dir, 'zonedeck.db')} (DATA_DIR=${dir})\n`);
    expect(fs.existsSync(path.join(dir, 'zonedeck.db'))).toBe(true);
    // The user is in that database: a token for them is minted without --init.
    expect(cli(dir, 'tokens', 'create', 'erin').at(-1)).toMatch(/^zd_/);
    // --init is a flag of the commands that open the database, explained in their help, not of backup.
    expect(usage(commandsNamed(['users', 'add']))).toMatch(/--init\s+create the database when there is none yet/);
    expect(usage(commandsNamed(['backup']))).not.toContain('--init');
    const backup = await runCli(dir, ['backup', path.join(dir, 'copy.db'), '--init']);
    expect(backup.status).toBe(2);
    expect(backup.stderr).toMatch(/--init is not a flag of backup/);
  });

  it('names the database it uses on stderr, one line, while the server runs on it', async () => {
    const r = await runCli(server.dataDir, ['ips', 'list', 'admin']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`database: ${path.join(server.dataDir, 'zonedeck.db')} (DATA_DIR=${server.dataDir})\n`);
  });

  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.ZONEDECK_TEST_POSTGRES;
  it.skipIf(!pgUrl)('refuses a PostgreSQL database that holds no zonedeck data unless given --init, and never prints its password', async () => {
    const db = await createPostgresDatabase(pgUrl!);
    try {
      const env = { DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY };
      const password = new URL(db.url).password;
      const refused = await runCli(tempDataDir(), ['users', 'add', 'alice'], env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        /^database: PostgreSQL postgres:\/\/.*\(DATABASE_URL\)\nerror: the database postgres:\/\/.* holds no zonedeck data: set DATABASE_URL to the server's database, or add --init/,
      );
      if (password) expect(refused.stderr).not.toContain(password);
      expect((await runCli(tempDataDir(), ['users', 'add', 'alice', '--init'], env)).status).toBe(0);
      const listed = await runCli(tempDataDir(), ['tokens', 'list', 'alice'], env);
      expect(listed.status).toBe(0);
    } finally {
      await db.drop();
    }
  });
});
