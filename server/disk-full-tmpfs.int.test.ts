/**
 * A real full disk under SQLite: the server's data directory on a small tmpfs of its own, filled
 * by another file until nothing fits, as an operator's disk fills with logs. Writes answer 507
 * `insufficient_storage` (never 500), reads and DNS go on, /readyz says so, the process stays up;
 * once the other file is gone, writes work again with no restart, and the database is intact with
 * every acknowledged write in it. The disk is server/testing/small-disk.ts; mounting needs root (CI runs as root); elsewhere the test is
 * skipped, saying why — server/api/disk-full.test.ts covers the same answers with SQLite's own limit.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from './testing/server-process';
import { mountSmallDisk, type SmallDisk } from './testing/small-disk';

// Mounted as the file is read, so that the test is skipped, saying why, where it cannot be.
const disk: SmallDisk | string = process.getuid?.() === 0 ? mountSmallDisk(48) : 'mounting a tmpfs needs root';
const missing = typeof disk === 'string' ? disk : null;
if (missing) console.warn(`disk-full-tmpfs.int.test.ts: skipped: ${missing}`);
const small = typeof disk === 'string' ? null : disk;

let server: ServerProcess | undefined;
let token: string;

beforeAll(async () => {
  if (!small) return;
  server = await startServer({ DNS_PORT: '0' }, small.dataDir);
  cli(small.dataDir, 'users', 'add', 'erin');
  token = cli(small.dataDir, 'tokens', 'create', 'erin').at(-1)!;
  expect((await api('POST', '/domains', { name: 'tmpfs.test' })).status).toBe(201);
  expect((await api('POST', '/domains/tmpfs.test/records', { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  small?.unmount();
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

describe.skipIf(missing)('SQLite on a tmpfs that fills up', () => {
  it('answers writes 507 while the disk is full, goes on reading and answering DNS, and writes again once there is space', async () => {
    const acknowledged: string[] = [];
    expect((await api('PATCH', '/domains/tmpfs.test/rrsets', bulk('before'))).status).toBe(200);
    acknowledged.push('before');
    small!.fill();

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
    small!.free();
    const again = await api('PATCH', '/domains/tmpfs.test/rrsets', bulk('after'));
    expect(again.status).toBe(200);
    acknowledged.push('after');
    expect(await (await fetch(`${server!.url}/readyz`)).json()).toMatchObject({ status: 'ready' });
    expect(server!.child.exitCode).toBeNull();

    // Stopped and checked: intact, with every acknowledged write whole and nothing of a refused one.
    await server!.stop();
    server = undefined;
    const db = new Database(path.join(small!.dataDir, 'zonedeck.db'), { readonly: true });
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
