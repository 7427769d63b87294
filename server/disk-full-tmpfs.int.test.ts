/**
 * A real full disk under SQLite: the server's data directory on a small tmpfs of its own, filled
 * by another file until nothing fits, as an operator's disk fills with logs. Writes answer 507
 * `insufficient_storage` (never 500), reads and DNS go on, /readyz says so, the process stays up;
 * once the other file is gone, writes work again with no restart, and the database is intact with
 * every acknowledged write in it. Mounting needs root (CI runs as root); elsewhere the test is
 * skipped, saying why — server/api/disk-full.test.ts covers the same answers with SQLite's own limit.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from './testing/server-process';

/** Why a tmpfs cannot be mounted here, or null when it can (it is mounted, tried and unmounted). */
function tmpfsMissing(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `cannot mount a tmpfs: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const missing = tmpfsMissing();
if (missing) console.warn(`disk-full-tmpfs.int.test.ts: skipped: ${missing}`);

let mount: string;
let server: ServerProcess | undefined;
let token: string;

beforeAll(async () => {
  if (missing) return;
  mount = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mount]);
  server = await startServer({ DNS_PORT: '0' }, mount);
  cli(mount, 'users', 'add', 'erin');
  token = cli(mount, 'tokens', 'create', 'erin').at(-1)!;
  expect((await api('POST', '/domains', { name: 'tmpfs.test' })).status).toBe(201);
  expect((await api('POST', '/domains/tmpfs.test/records', { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (mount) {
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  }
});

function api(method: string, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server!.url}/api/v1${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Many TXT records of one name: tens of kilobytes, more than the write-ahead log's free pages. */
const bulk = (label: string) => ({
  rrsets: [{ name: label, record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records: Array.from({ length: 300 }, (_, i) => `"${label} ${i} ${'x'.repeat(200)}"`) }],
});

const dig = (name: string, type = 'TXT') => execFileSync('dig', ['+short', '+tries=3', '+time=2', '-p', String(server!.dnsPort), '@127.0.0.1', name, type], { encoding: 'utf8' }).trim();

/** Fills the file system with a file of its own until a write finds no space. */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(1 << 20, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  // What a 1 MiB write left: the last few blocks too.
  const small = fs.openSync(file, 'a');
  try {
    for (;;) fs.writeSync(small, Buffer.alloc(4096, 1));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(small);
  }
}

describe.skipIf(missing)('SQLite on a tmpfs that fills up', () => {
  it('answers writes 507 while the disk is full, goes on reading and answering DNS, and writes again once there is space', async () => {
    const acknowledged: string[] = [];
    expect((await api('PATCH', '/domains/tmpfs.test/rrsets', bulk('before'))).status).toBe(200);
    acknowledged.push('before');
    const filler = path.join(mount, 'logs.filler');
    fill(filler);

    // Writes until one finds the disk full: every answer 200 or 507, never 500.
    const statuses: number[] = [];
    for (let i = 0; i < 40 && !statuses.includes(507); i++) {
      const res = await api('PATCH', '/domains/tmpfs.test/rrsets', bulk(`full${i}`));
      statuses.push(res.status);
      if (res.status === 200) acknowledged.push(`full${i}`);
      else expect(((await res.json()) as { error: { code: string } }).error.code).toBe('insufficient_storage');
    }
    expect(statuses).toContain(507);
    expect(statuses.filter((s) => s !== 200 && s !== 507)).toEqual([]);

    // Reads, DNS and /readyz go on.
    expect((await api('GET', '/domains/tmpfs.test')).status).toBe(200);
    expect(dig('www.tmpfs.test', 'A')).toBe('192.0.2.80');
    const ready = await fetch(`${server!.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/disk under the database is full/) });
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);

    // Space again: the next write goes through, same process.
    fs.rmSync(filler);
    const again = await api('PATCH', '/domains/tmpfs.test/rrsets', bulk('after'));
    expect(again.status).toBe(200);
    acknowledged.push('after');
    expect(await (await fetch(`${server!.url}/readyz`)).json()).toMatchObject({ status: 'ready' });
    expect(server!.child.exitCode).toBeNull();

    // Stopped and checked: intact, with every acknowledged write whole and nothing of a refused one.
    await server!.stop();
    server = undefined;
    const db = new Database(path.join(mount, 'zonedeck.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = db.prepare("select name, count(*) as n from records where record_type = 'TXT' group by name").all() as { name: string; n: number }[];
      // Each label written is there whole (300 records) exactly when its write was answered 200.
      const counts = new Map(rows.map((r) => [r.name.replace(/\.?tmpfs\.test\.?$/, ''), r.n]));
      expect([...counts.keys()].sort()).toEqual([...acknowledged].sort());
      expect([...counts.values()].every((n) => n === 300)).toBe(true);
    } finally {
      db.close();
    }
  });
});
