/**
 * Against the built server: DATA_DIR is 0700 and its files
 * 0600; a copy of the database reveals no TSIG secret and no DNSSEC private key, while `dig -y`
 * still gets signed answers and the signed zone still carries RRSIGs; rows stored in clear by an
 * older version are sealed at start; a wrong SECRETS_KEY stops the start with a clear message.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, startServer, tempDataDir, type ServerProcess } from './testing/server-process';

const run = promisify(execFile);
let server: ServerProcess | undefined;
afterAll(() => server?.stop());

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** Every value of every table, as text. */
function everyValue(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[];
    return tables.map((t) => JSON.stringify(db.prepare(`select * from "${t}"`).raw().all())).join('\n');
  } finally {
    db.close();
  }
}

async function up(dataDir: string, env: Record<string, string> = {}) {
  server = await startServer({ DNS_PORT: '0', ...env }, dataDir);
  return server;
}

describe('secrets at rest', () => {
  it('are sealed in the database, the data directory is the owner’s, and dig still gets signed answers', async () => {
    const dir = tempDataDir();
    fs.chmodSync(dir, 0o755);
    const s = await up(dir);
    cli(dir, 'users', 'add', 'alice');
    const token = cli(dir, 'tokens', 'create', 'alice').at(-1)!;
    const api = (method: string, p: string, body?: unknown) =>
      fetch(`${s.url}/api/v1${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await api('POST', '/domains', { name: 'sealed.test', dnssec_enabled: true })).status).toBe(201);
    const key = (await (await api('POST', '/tsig-keys', { name: 'sealed-key' })).json()) as { secret: string; nsupdate: string };

    expect(mode(dir)).toBe(0o700);
    for (const f of ['zonedeck.db', 'secrets.key']) expect(mode(path.join(dir, f))).toBe(0o600);
    const dump = everyValue(path.join(dir, 'zonedeck.db'));
    expect(dump).toContain('sealed-key');
    expect(dump).not.toContain(key.secret);
    // No PKCS#8 key in base64 (the start of its DER: a P-256 or P-384, Ed25519 or RSA key's) nor in
    // PEM. Only the start: the DNSKEY's public key, random base64, may hold "MIG" anywhere.
    expect(dump).not.toMatch(/MIG.AgEA|MC4CAQA|MII..[A-Za-z0-9+/]IBAD|PRIVATE KEY/);
    expect(dump).toMatch(/enc:v1:[0-9a-f]{8}:/);

    const dig = async (...args: string[]) => (await run('dig', ['@127.0.0.1', '-p', String(s.dnsPort), '+norec', '+time=2', '+tries=2', ...args])).stdout;
    let signed = '';
    // The DNS thread takes a new key up within a second.
    for (let i = 0; i < 50 && !/status: NOERROR/.test(signed); i++) {
      signed = await dig('-y', key.nsupdate, 'sealed.test', 'SOA').catch(() => '');
      if (!/status: NOERROR/.test(signed)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(signed).toMatch(/status: NOERROR/);
    expect(signed).toMatch(/sealed-key\.\s+0\s+ANY\s+TSIG\s+hmac-sha256\.\s+\d+\s+300\s+32\s+\S+\s+\d+\s+NOERROR/);
    expect(await dig('+dnssec', 'sealed.test', 'SOA')).toMatch(/RRSIG\s+SOA 13 2/);
    await s.stop();
  });

  it('an older database with secrets in clear is sealed at start, and its key still signs', async () => {
    const dir = tempDataDir();
    let s = await up(dir);
    cli(dir, 'users', 'add', 'bob');
    const y = cli(dir, 'tsig', 'create', 'bob', 'old-key').at(-1)!;
    const secret = y.split(':')[2]!;
    await s.stop();
    // What an older version wrote: the secret in clear.
    const db = new Database(path.join(dir, 'zonedeck.db'));
    db.prepare(`update tsig_keys set secret = ? where name = 'old-key'`).run(secret);
    db.close();
    expect(everyValue(path.join(dir, 'zonedeck.db'))).toContain(secret);
    s = await up(dir);
    expect(everyValue(path.join(dir, 'zonedeck.db'))).not.toContain(secret);
    let out = '';
    for (let i = 0; i < 50 && !/status: REFUSED/.test(out); i++) {
      out = (await run('dig', ['@127.0.0.1', '-p', String(s.dnsPort), '+norec', '-y', y, 'old-key.test', 'SOA']).catch(() => ({ stdout: '' }))).stdout;
      if (!/status: REFUSED/.test(out)) await new Promise((r) => setTimeout(r, 100));
    }
    // No such zone, so REFUSED, but answered signed: the key opened.
    expect(out).toMatch(/status: REFUSED/);
    expect(out).toMatch(/old-key\.\s+0\s+ANY\s+TSIG/);
    await s.stop();
  });

  it('secrets rotate re-seals every secret under a new key file, and the server signs with it after a restart', async () => {
    const dir = tempDataDir();
    let s = await up(dir);
    cli(dir, 'users', 'add', 'dora');
    const y = cli(dir, 'tsig', 'create', 'dora', 'dora-key').at(-1)!;
    await s.stop();
    const before = fs.readFileSync(path.join(dir, 'secrets.key'), 'utf8');
    const idBefore = /enc:v1:([0-9a-f]{8}):/.exec(everyValue(path.join(dir, 'zonedeck.db')))![1];
    const out = cli(dir, 'secrets', 'rotate');
    expect(out.at(-1)).toMatch(/^re-sealed 1 secrets under key [0-9a-f]{8}; .*secrets\.key holds it now/);
    expect(fs.readFileSync(path.join(dir, 'secrets.key'), 'utf8')).not.toBe(before);
    expect(mode(path.join(dir, 'secrets.key'))).toBe(0o600);
    const idAfter = /enc:v1:([0-9a-f]{8}):/.exec(everyValue(path.join(dir, 'zonedeck.db')))![1];
    expect(idAfter).not.toBe(idBefore);
    s = await up(dir);
    let answer = '';
    for (let i = 0; i < 50 && !/status: REFUSED/.test(answer); i++) {
      answer = (await run('dig', ['@127.0.0.1', '-p', String(s.dnsPort), '+norec', '-y', y, 'none.test', 'SOA']).catch(() => ({ stdout: '' }))).stdout;
      if (!/status: REFUSED/.test(answer)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer).toMatch(/dora-key\.\s+0\s+ANY\s+TSIG/);
    await s.stop();
  });

  it('a wrong SECRETS_KEY stops the start with a message naming it; PostgreSQL without one is refused', async () => {
    const dir = tempDataDir();
    const s = await up(dir);
    cli(dir, 'users', 'add', 'carol');
    cli(dir, 'tsig', 'create', 'carol', 'carol-key');
    await s.stop();
    const node = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['build/server.js'], {
        cwd: path.resolve(__dirname, '..'),
        env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DNS_PORT: 'off', DATA_DIR: dir, ...env },
        encoding: 'utf8',
        timeout: 20_000,
      });
    const wrong = node({ SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^zonedeck: SECRETS_KEY: a secret in the database was sealed under key [0-9a-f]{8}, but this key is [0-9a-f]{8}/);
    expect(wrong.stderr).not.toMatch(/\s+at\s/);
    const pg = node({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(pg.status).toBe(2);
    expect(pg.stderr).toMatch(/SECRETS_KEY must be set with DATABASE_URL/);
    const bad = node({ SECRETS_KEY: 'not-a-key' });
    expect(bad.stderr).toMatch(/SECRETS_KEY: must be the base64 of 32 octets/);
  });
});
