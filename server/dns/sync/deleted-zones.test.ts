/**
 * A deleted zone restored, seen from outside with the real server: dig answers
 * again at once with the old records and a newer SOA serial, and delv validates with the trust
 * anchor taken before the deletion (the very same DNSSEC key signs again, so the parent's DS
 * still matches). A zone created under the name in the meantime is served only while it lives.
 * The archive holds the private key sealed as stored; `secrets rotate` re-seals it, and the
 * restored zone signs with it under the new key.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer as startProcess, tempDataDir } from '../../testing/server-process';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
let s: RunningServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.stop();
});

async function json<T = any>(res: Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** delv's whole output, with `key` (the DNSKEY's public key field) as the trust anchor of `zone` (example.com). */
async function delv(key: string, name: string, at = { dir: s.dir, dns: s.dns }, zone = 'example.com'): Promise<string> {
  const file = path.join(at.dir, 'anchor.conf');
  fs.writeFileSync(file, `trust-anchors {\n  "${zone}." static-key 257 3 13 "${key}";\n};\n`);
  try {
    const { stdout, stderr } = await run('delv', ['@127.0.0.1', '-p', String(at.dns), '-a', file, `+root=${zone}`, name, 'A']);
    return `${stdout}\n${stderr}`;
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error('delv is not installed: apt-get install bind9-dnsutils');
    return `${err.stdout ?? ''}\n${err.stderr ?? ''}`;
  }
}

const short = async (name: string, type = 'A') => (await s.dig('+short', name, type)).trim();
const serial = async () => Number((await short('example.com', 'SOA')).split(/\s+/)[2]);
const until = (fn: () => Promise<boolean>) => eventually(fn).then((ok) => expect(ok).toBe(true));

describe('a deleted zone restored, as DNS serves it', () => {
  it('answers again with the old records, a newer serial, and validates with the pre-deletion trust anchor', async () => {
    await json(s.api('POST', '/domains', { name: 'example.com', dnssec_enabled: true }), 201);
    await json(s.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1' }));
    await json(s.api('POST', '/domains/example.com/records', { name: 'quiet', record_type: 'A', content: '192.0.2.9', disabled: true }));
    const zone = await json(s.api('GET', '/domains/example.com'));
    const anchorKey = (zone.dnskey_records[0] as string).split(' ').at(-1)!;
    await until(async () => (await short('www.example.com')) === '192.0.2.1');
    const before = await serial();
    expect(await delv(anchorKey, 'www.example.com')).toMatch(/; fully validated/);

    expect((await s.api('DELETE', '/domains/example.com')).status).toBe(200);
    await until(async () => /status: REFUSED/.test(await s.dig('www.example.com', 'A')));

    // A new zone of the name is served while it lives, then deleted too.
    await json(s.api('POST', '/domains', { name: 'example.com' }), 201);
    await json(s.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '198.51.100.1' }));
    await until(async () => (await short('www.example.com')) === '198.51.100.1');
    expect((await s.api('DELETE', '/domains/example.com')).status).toBe(200);
    await until(async () => /status: REFUSED/.test(await s.dig('www.example.com', 'A')));

    const listed = await json<Array<{ id: number; dnssec: boolean }>>(s.api('GET', '/deleted-domains'));
    const first = listed.find((d) => d.dnssec)!;
    await json(s.api('POST', `/deleted-domains/${first.id}/restore`, {}));
    await until(async () => (await short('www.example.com')) === '192.0.2.1');
    expect(await serial()).toBeGreaterThan(before);
    expect(await s.dig('quiet.example.com', 'A')).toMatch(/status: NXDOMAIN/);
    expect((await short('example.com', 'DNSKEY')).replace(/\s/g, '')).toContain(anchorKey);
    expect(await delv(anchorKey, 'www.example.com')).toMatch(/; fully validated/);
  });
});

/** One value of the SQLite database, read while the server runs (read-only). */
function query<T>(dataDir: string, sqlText: string): T[] {
  const db = new Database(path.join(dataDir, 'zonedeck.db'), { readonly: true });
  try {
    return db.prepare(sqlText).all() as T[];
  } finally {
    db.close();
  }
}

describe('the archive keeps the private key sealed', () => {
  // Two starts of the built server and a CLI run: more than the default 30 s on a busy machine.
  it('as stored, re-sealed by secrets rotate, and the restored zone signs with it under the new key', { timeout: 120_000 }, async () => {
    const dir = tempDataDir();
    let proc = await startProcess({ DNS_PORT: '0' }, dir);
    try {
      const token = cli(dir, 'tokens', 'create', 'admin').at(-1)!;
      const call = (method: string, url: string, body?: unknown) =>
        fetch(`${proc.url}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      await json(call('POST', '/domains', { name: 'sealed.test', dnssec_enabled: true }), 201);
      await json(call('POST', '/domains/sealed.test/records', { name: 'www', record_type: 'A', content: '192.0.2.88' }));
      const zone = await json(call('GET', '/domains/sealed.test'));
      const anchorKey = (zone.dnskey_records[0] as string).split(' ').at(-1)!;
      const [stored] = query<{ private_key: string }>(dir, 'select private_key from dnssec_keys');
      expect(stored!.private_key).toMatch(/^enc:v1:/);
      expect((await call('DELETE', '/domains/sealed.test')).status).toBe(200);
      const [archived] = query<{ snapshot: string }>(dir, 'select snapshot from deleted_zones');
      // Copied as stored: the sealed value, never the key in clear.
      expect(JSON.parse(archived!.snapshot).keys.map((k: { private_key: string }) => k.private_key)).toEqual([stored!.private_key]);
      expect(query(dir, 'select id from dnssec_keys')).toEqual([]);
      await proc.stop();

      // A new secrets key: the archive's key is re-sealed under it (the only secret left).
      expect(cli(dir, 'secrets', 'rotate').at(-1)).toMatch(/^re-sealed 1 secrets under key /);
      const [resealed] = query<{ snapshot: string }>(dir, 'select snapshot from deleted_zones');
      expect(JSON.parse(resealed!.snapshot).keys[0].private_key).not.toBe(stored!.private_key);

      proc = await startProcess({ DNS_PORT: '0' }, dir);
      const [d] = await json<Array<{ id: number }>>(call('GET', '/deleted-domains'));
      await json(call('POST', `/deleted-domains/${d!.id}/restore`, {}));
      const at = { dir, dns: proc.dnsPort! };
      await until(async () => (await run('dig', ['@127.0.0.1', '-p', String(at.dns), '+short', 'www.sealed.test', 'A'])).stdout.trim() === '192.0.2.88');
      expect(await delv(anchorKey, 'www.sealed.test', at, 'sealed.test')).toMatch(/; fully validated/);
    } finally {
      await proc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
