/**
 * Serials across the wrap (RFC 1982), with Knot DNS as the secondary: a
 * zone at 2³²−1 takes a change, its serial goes round the circle to today's YYYYMMDDnn
 * (numerically far smaller, in RFC 1982 a valid increment), and Knot — which refuses a serial
 * that is not newer — follows it by an incremental IXFR from the history, then follows the next
 * change too.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonPath, knotPreamble } from '../../testing/daemons';
import { cli, startServer, tempDataDir, type ServerProcess } from '../../testing/server-process';
import { eventually, freePort } from '../../testing/test-server';

const run = promisify(execFile);
const MAX_SERIAL = 2 ** 32 - 1;

let zd: ServerProcess | undefined;
let knot: ChildProcess | undefined;
let knotLog = '';
const dataDir = tempDataDir();
const knotDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-wrap-'));

afterAll(async () => {
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot!.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  await zd?.stop();
  fs.rmSync(knotDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function digSoa(port: number): Promise<number | undefined> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', 'wrap.example', 'SOA']);
    const serial = stdout.trim().split(/\s+/)[2];
    return serial === undefined ? undefined : Number(serial);
  } catch {
    return undefined;
  }
}

async function digTxt(port: number, name: string): Promise<string> {
  try {
    return (await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', name, 'TXT'])).stdout.trim();
  } catch {
    return '';
  }
}

describe('a zone at serial 2^32-1 with Knot as its secondary', () => {
  it('changes, wraps to a serial Knot accepts as newer, and Knot keeps transferring (incrementally)', async () => {
    // A zone made through the API; then, with the server stopped, its serial set to the top of the space.
    let first = await startServer({ DNS_PORT: '0' }, dataDir);
    const token = cli(dataDir, 'tokens', 'create', 'admin').at(-1)!;
    const api = (url: string, body: unknown) =>
      fetch(`${zd?.url ?? first.url}/api/v1${url}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await api('/domains', { name: 'wrap.example' })).status).toBe(201);
    expect((await api('/domains/wrap.example/records', { name: 'before', record_type: 'TXT', content: 'before the wrap' })).status).toBe(200);
    await first.stop();
    const db = new Database(path.join(dataDir, 'zonedeck.db'));
    db.prepare('UPDATE domains SET serial_number = ? WHERE name = ?').run(MAX_SERIAL, 'wrap.example');
    db.close();

    const knotPort = await freePort();
    zd = await startServer({ DNS_PORT: '0', SECONDARIES: `127.0.0.1:${knotPort}` }, dataDir);
    first = zd;
    expect(await digSoa(zd.dnsPort!)).toBe(MAX_SERIAL);

    const conf = path.join(knotDir, 'knot.conf');
    fs.writeFileSync(
      conf,
      `${knotPreamble(knotDir, knotPort, zd.dnsPort!)}template:
  - id: default
    storage: "${knotDir}"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: wrap.example
    master: zonedeck
    acl: notify-from-zonedeck
`,
    );
    knot = spawn(daemonPath('knotd', 'knot'), ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    knot.stdout!.on('data', (d) => (knotLog += d));
    knot.stderr!.on('data', (d) => (knotLog += d));
    expect(await eventually(async () => (await digSoa(knotPort)) === MAX_SERIAL, 100, 100), knotLog).toBe(true);

    // The change that goes round the circle.
    expect((await api('/domains/wrap.example/records', { name: 'after', record_type: 'TXT', content: 'after the wrap' })).status).toBe(200);
    const wrapped = (await digSoa(zd.dnsPort!))!;
    expect(wrapped).toBeLessThan(MAX_SERIAL);
    // The API tells the same 32-bit serial the wire carries (nothing stored past 2^32-1).
    const view = (await (await fetch(`${zd.url}/api/v1/domains/wrap.example`, { headers: { authorization: `Bearer ${token}` } })).json()) as { serial_number: number };
    expect(view.serial_number).toBe(wrapped);
    // RFC 1982 §3.2: 2^32-1 + n (mod 2^32) with 0 < n < 2^31 is greater.
    expect((wrapped - MAX_SERIAL + 2 ** 32) % 2 ** 32).toBeGreaterThan(0);
    expect((wrapped - MAX_SERIAL + 2 ** 32) % 2 ** 32).toBeLessThan(2 ** 31);
    expect(await eventually(async () => (await digTxt(knotPort, 'after.wrap.example')) === '"after the wrap"', 100, 100), knotLog).toBe(true);
    expect(await digSoa(knotPort)).toBe(wrapped);
    // From the history, as a delta, not a whole-zone fallback.
    expect(knotLog).toMatch(/IXFR, incoming, remote 127\.0\.0\.1@\d+, finished/);
    expect(knotLog).not.toMatch(/serial.*(lower|older|smaller)/i);

    // And the next change after the wrap is followed too.
    expect((await api('/domains/wrap.example/records', { name: 'later', record_type: 'TXT', content: 'later still' })).status).toBe(200);
    const later = (await digSoa(zd.dnsPort!))!;
    expect(later).toBe(wrapped + 1);
    expect(await eventually(async () => (await digTxt(knotPort, 'later.wrap.example')) === '"later still"', 100, 100), knotLog).toBe(true);
    expect(await digSoa(knotPort)).toBe(later);
    expect(await digTxt(knotPort, 'before.wrap.example')).toBe('"before the wrap"');
  }, 120_000);
});
