/**
 * `backup` while the built server takes writes through the API and RFC 2136 at once, `restore`
 * into a fresh DATA_DIR, a server started on it: every write acknowledged before the backup began
 * is there, the copy is one moment of the database (serial and history agree with its records),
 * the TSIG key still signs and updates, and DNSSEC still validates under the key of before.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../store/migrate';
import { createPostgresDatabase, TEST_SECRETS_KEY } from '../testing/postgres-database';
import { cli, runCli, startServer, tempDataDir, type ServerProcess } from '../testing/server-process';

const exec = promisify(execFile);
const ZONE = 'example.com';

let source: ServerProcess;
let restored: ServerProcess | undefined;
let token: string;
let y: string;
const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-backups-'));
const backupFile = path.join(backups, 'zonedeck-backup.db');

beforeAll(async () => {
  source = await startServer({ DNS_PORT: '0', RATE_LIMIT_UPDATE: 'off' });
  cli(source.dataDir, 'users', 'add', 'alice');
  token = cli(source.dataDir, 'tokens', 'create', 'alice').at(-1)!;
  y = cli(source.dataDir, 'tsig', 'create', 'alice', 'update-key').at(-1)!;
});
afterAll(async () => {
  await source?.stop();
  await restored?.stop();
  fs.rmSync(backups, { recursive: true, force: true });
});

const api = (server: ServerProcess, method: string, url: string, body?: unknown) =>
  fetch(`${server.url}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

const dig = async (server: ServerProcess, ...args: string[]) =>
  (await exec('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '+time=2', '+tries=2', ...args]).catch((e: { stdout?: string }) => e)).stdout ?? '';

/** An RFC 2136 update signed with `key`; true when the server applied it. */
function nsupdate(server: ServerProcess, key: string, commands: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('nsupdate', ['-y', key]);
    child.on('exit', (code) => resolve(code === 0));
    child.stdin.end([`server 127.0.0.1 ${server.dnsPort}`, `zone ${ZONE}`, ...commands, 'send', ''].join('\n'));
  });
}

async function records(server: ServerProcess): Promise<Set<string>> {
  const all = new Set<string>();
  for (let page = 1; ; page++) {
    const rows = (await (await api(server, 'GET', `/domains/${ZONE}/records?record_type=A&per_page=500&page=${page}`)).json()) as { name: string; content: string }[];
    for (const r of rows) all.add(`${r.name} ${r.content}`);
    if (rows.length < 500) return all;
  }
}

const changeCount = async (server: ServerProcess) => Number((await api(server, 'GET', `/domains/${ZONE}/changes?per_page=1`)).headers.get('x-total-count'));

/** Every file of a directory with a digest of its content. */
const snapshot = (dir: string) =>
  Object.fromEntries(
    fs.readdirSync(dir).map((f) => [
      f,
      createHash('sha256')
        .update(fs.readFileSync(path.join(dir, f)))
        .digest('hex'),
    ]),
  );

describe('backup and restore', () => {
  it('copies a database under write load that a fresh DATA_DIR serves as it was, secrets and signatures included', async () => {
    const created = await api(source, 'POST', '/domains', { name: ZONE, dnssec_enabled: true });
    expect(created.status).toBe(201);
    const dnskey = ((await created.json()) as { dnskey_records: string[] }).dnskey_records[0]!.split(' ').at(-1)!;
    expect((await api(source, 'POST', `/domains/${ZONE}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
    const zoneAtStart = (await (await api(source, 'GET', `/domains/${ZONE}`)).json()) as { serial_number: number };
    const changesAtStart = await changeCount(source);

    // Two API writers and one RFC 2136 writer; each write is one change set.
    const attempted = new Set<string>();
    const acknowledged: string[] = [];
    let stop = false;
    const apiWriter = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const [name, content] = [`api${w}-${i}`, `10.${w}.${Math.floor(i / 250)}.${(i % 250) + 1}`];
        attempted.add(`${name} ${content}`);
        if ((await api(source, 'POST', `/domains/${ZONE}/records`, { name, record_type: 'A', content })).status === 200) acknowledged.push(`${name} ${content}`);
      }
    };
    const updateWriter = async () => {
      for (let i = 0; !stop; i++) {
        const [name, content] = [`upd-${i}`, `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`];
        attempted.add(`${name} ${content}`);
        if (await nsupdate(source, y, [`update add ${name}.${ZONE} 300 A ${content}`])) acknowledged.push(`${name} ${content}`);
      }
    };
    const writers = [apiWriter(0), apiWriter(1), updateWriter()];
    await new Promise((r) => setTimeout(r, 1000));

    const before = [...acknowledged];
    const backup = await runCli(source.dataDir, ['backup', backupFile]);
    const during = acknowledged.length - before.length;
    stop = true;
    await Promise.all(writers);
    // Nothing on stderr but the line that names the database it copied.
    expect(backup.stderr).toBe(`database: ${path.resolve(source.dataDir, 'zonedeck.db')} (DATA_DIR=${source.dataDir})\n`);
    expect(backup.status).toBe(0);
    // The writers went on while the backup ran, through both paths.
    expect(during).toBeGreaterThan(0);
    expect(before.some((w) => w.startsWith('upd-'))).toBe(true);
    // The last lines say where the key is, and what it is for.
    const lines = backup.stdout.trim().split('\n');
    expect(lines.at(-2)).toContain(`${backupFile}.key`);
    expect(lines.at(-1)).toBe(`without ${backupFile}.key the TSIG secrets and DNSSEC keys in the backup cannot be read: keep it with the backup, stored apart from it`);
    expect(fs.readFileSync(`${backupFile}.key`, 'utf8')).toBe(fs.readFileSync(path.join(source.dataDir, 'secrets.key'), 'utf8'));
    for (const f of [backupFile, `${backupFile}.key`]) expect(fs.statSync(f).mode & 0o777).toBe(0o600);

    const target = path.join(tempDataDir(), 'data');
    const restoredLines = cli(target, 'restore', backupFile);
    expect(restoredLines[0]).toMatch(new RegExp(`^restored ${backupFile} \\(1 zones, \\d+ records, schema ${MIGRATIONS.at(-1)}\\) into ${target}/zonedeck.db$`));
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
    for (const f of ['zonedeck.db', 'secrets.key']) expect(fs.statSync(path.join(target, f)).mode & 0o777).toBe(0o600);

    restored = await startServer({ DNS_PORT: '0', RATE_LIMIT_UPDATE: 'off' }, target);
    // The API token of before the backup opens it: the users and tokens came along.
    const stored = await records(restored);
    for (const w of before) expect(stored.has(w), `${w} was acknowledged before the backup`).toBe(true);
    const written = [...stored].filter((r) => r !== 'www 192.0.2.1');
    for (const w of written) expect(attempted.has(w), w).toBe(true);
    // One moment of the database: every stored write bumped the serial once and left one change set.
    const zone = (await (await api(restored, 'GET', `/domains/${ZONE}`)).json()) as { serial_number: number };
    expect(zone.serial_number).toBe(zoneAtStart.serial_number + written.length);
    expect(await changeCount(restored)).toBe(changesAtStart + written.length);

    // DNS answers what the API holds.
    const sample = before.find((w) => w.startsWith('upd-'))!.split(' ');
    expect((await dig(restored, '+short', `${sample[0]}.${ZONE}`, 'A')).trim()).toBe(sample[1]);
    // The TSIG key's secret came through: a signed query verifies, a wrong secret does not, and an update with it applies.
    const signed = await dig(restored, '-y', y, ZONE, 'SOA');
    expect(signed).toMatch(/status: NOERROR/);
    expect(signed).not.toMatch(/Couldn't verify|tsig verify failure|BADSIG|BADKEY/i);
    expect(await dig(restored, '-y', `hmac-sha256:update-key:${Buffer.alloc(32, 1).toString('base64')}`, ZONE, 'SOA')).not.toMatch(/status: NOERROR/);
    expect(await nsupdate(restored, y, [`update add after-restore.${ZONE} 300 A 192.0.2.99`])).toBe(true);
    expect((await dig(restored, '+short', `after-restore.${ZONE}`, 'A')).trim()).toBe('192.0.2.99');
    // DNSSEC still signs with the key of before: the answers validate against it as a trust anchor.
    const anchor = path.join(backups, 'anchor.conf');
    fs.writeFileSync(anchor, `trust-anchors { "${ZONE}." static-key 257 3 13 "${dnskey}"; };\n`);
    const delv = await exec('delv', ['@127.0.0.1', '-p', String(restored.dnsPort), '-a', anchor, `+root=${ZONE}`, `www.${ZONE}`, 'A']).catch((e: { stdout?: string; stderr?: string }) => e);
    expect(`${delv.stdout}${delv.stderr}`).toMatch(/; fully validated[\s\S]*192\.0\.2\.1/);
    // And /readyz says which schema it runs on.
    expect(await (await fetch(`${restored.url}/readyz`)).json()).toEqual({ status: 'ready', schema_version: MIGRATIONS.at(-1) });
  }, 120_000);

  it('restores over an existing database only with --force, keeping the one it replaces', async () => {
    await restored!.stop();
    const dir = restored!.dataDir;
    const files = snapshot(dir);
    expect(() => cli(dir, 'restore', backupFile)).toThrow(/already holds a database: stop its server, then add --force to replace it/);
    expect(snapshot(dir)).toEqual(files);

    const lines = cli(dir, 'restore', backupFile, '--force');
    const kept = fs.readdirSync(dir).find((f) => f.startsWith('zonedeck.db.replaced-'))!;
    expect(lines).toContain(`the file that was there is kept as ${path.join(dir, kept)}`);
    // The one replaced is the database the server wrote after the first restore; the new one is the backup again.
    const replaced = new Database(path.join(dir, kept), { readonly: true });
    expect(replaced.prepare(`select count(*) from records where name = 'after-restore'`).pluck().get()).toBe(1);
    replaced.close();
    restored = await startServer({ DNS_PORT: '0' }, dir);
    expect((await dig(restored, '+short', `after-restore.${ZONE}`, 'A')).trim()).toBe('');
  }, 60_000);

  it('refuses to restore under a running server, which goes on serving', async () => {
    const files = snapshot(source.dataDir);
    const res = await runCli(source.dataDir, ['restore', backupFile, '--force']);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/zonedeck\.db is open in another process: a zonedeck server \(or CLI\) is using it; stop it first/);
    expect(Object.keys(snapshot(source.dataDir)).sort()).toEqual(Object.keys(files).sort());
    expect((await api(source, 'GET', `/domains/${ZONE}`)).status).toBe(200);
  });

  it('refuses a file that is not a zonedeck database, and a backup whose key is missing', async () => {
    const junk = path.join(backups, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all, just some text that is long enough to be read '.repeat(100));
    const dir = path.join(tempDataDir(), 'data');
    expect(() => cli(dir, 'restore', junk)).toThrow(/is not an SQLite database/);
    const keyless = path.join(backups, 'keyless.db');
    fs.copyFileSync(backupFile, keyless);
    expect(() => cli(dir, 'restore', keyless)).toThrow(/sealed under key [0-9a-f]{8}, and no key came with it: put its key file at .*keyless\.db\.key, or set SECRETS_KEY/);
    expect(fs.existsSync(path.join(dir, 'zonedeck.db'))).toBe(false);
  });

  it('on PostgreSQL, gives the pg_dump and pg_restore steps and the SECRETS_KEY reminder instead', async () => {
    const res = await runCli(tempDataDir(), ['backup', path.join(backups, 'pg.db')], { DATABASE_URL: 'postgres://zonedeck@db.invalid/zonedeck', SECRETS_KEY: TEST_SECRETS_KEY });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('  pg_dump --format=custom --file=zonedeck.dump "$DATABASE_URL"');
    expect(res.stderr).toContain('  pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" zonedeck.dump');
    expect(res.stderr).toMatch(/sealed under SECRETS_KEY \(key [0-9a-f]{8}\), which is not in it/);
    expect(fs.existsSync(path.join(backups, 'pg.db'))).toBe(false);
  });

  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.ZONEDECK_TEST_POSTGRES;
  it.skipIf(!pgUrl)(
    'and those steps, run as printed, carry zones and secrets to another database (TEST_DATABASE_URL)',
    async () => {
      const [from, to] = [await createPostgresDatabase(pgUrl!), await createPostgresDatabase(pgUrl!)];
      const dump = path.join(backups, 'zonedeck.dump');
      try {
        const on = (url: string, ...args: string[]) => runCli(tempDataDir(), args, { DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY });
        await on(from.url, 'users', 'add', 'alice', '--init');
        const zoneFile = path.join(backups, 'pg.zone');
        fs.writeFileSync(zoneFile, `$ORIGIN ${ZONE}.\nwww 300 IN A 192.0.2.1\nmail 300 IN MX 10 mx.example.net.\n`);
        expect((await on(from.url, 'zones', 'import', 'alice', ZONE, zoneFile)).status).toBe(0);
        expect((await on(from.url, 'tsig', 'create', 'alice', 'pg-key')).status).toBe(0);
        const steps = (await on(from.url, 'backup', dump)).stderr.split('\n').filter((l) => /^ {2}pg_(dump|restore) /.test(l));
        expect(steps).toHaveLength(2);
        await exec('sh', ['-c', steps[0]!.trim().replace('zonedeck.dump', dump)], { env: { ...process.env, DATABASE_URL: from.url } });
        await exec('sh', ['-c', steps[1]!.trim().replace(/zonedeck\.dump$/, dump)], { env: { ...process.env, DATABASE_URL: to.url } });
        // Opening the store opens every sealed secret: with the key it works, without it the start is refused.
        expect((await on(to.url, 'zones', 'export', ZONE)).stdout).toBe((await on(from.url, 'zones', 'export', ZONE)).stdout);
        expect((await on(to.url, 'tsig', 'list', 'alice')).stdout).toContain('"name":"pg-key"');
        const wrongKey = await runCli(tempDataDir(), ['tsig', 'list', 'alice'], { DATABASE_URL: to.url, SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') });
        expect(wrongKey.stderr).toMatch(/sealed under key [0-9a-f]{8}, but this key is/);
      } finally {
        await from.drop();
        await to.drop();
      }
    },
    60_000,
  );
});
