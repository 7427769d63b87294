/**
 * The start-up snapshot damaged on disk, as a real server process meets it: cut short, or with a
 * byte flipped inside a zone's block. The start reads the zones from the database instead, DNS
 * answers them as stored, and /metrics counts the fault by kind.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_FILE } from '../index/index-snapshot';
import { waitUntil } from '../../testing/wait-until';
import { cli, startServer, tempDataDir, type ServerProcess } from '../../testing/server-process';

const ENV = { DNS_PORT: '0' };
let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const dig = (name: string) => execFileSync('dig', ['+short', '+tries=3', '+time=2', '-p', String(server!.dnsPort), '@127.0.0.1', name, 'A'], { encoding: 'utf8' }).trim();
const faults = async (fault: string) => {
  const text = await (await fetch(`${server!.url}/metrics`)).text();
  return Number(new RegExp(`zonedeck_snapshot_faults_total\\{fault="${fault}"\\} (\\d+)`).exec(text)?.[1]);
};

/** A data directory whose snapshot holds one zone with records: made by one start, filed by the next. */
async function filedZone(): Promise<string> {
  const dir = tempDataDir();
  server = await startServer(ENV, dir);
  cli(dir, 'users', 'add', 'alice');
  const token = cli(dir, 'tokens', 'create', 'alice').at(-1)!;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  expect((await fetch(`${server.url}/api/v1/domains`, { method: 'POST', headers, body: JSON.stringify({ name: 'snap.test' }) })).status).toBe(201);
  const lines = Array.from({ length: 300 }, (_, i) => `h${i} 300 IN A 10.1.${i >> 8}.${i & 255}`);
  const put = await fetch(`${server.url}/api/v1/domains/snap.test/zone`, { method: 'POST', headers: { ...headers, 'content-type': 'text/dns' }, body: `${lines.join('\n')}\n` });
  expect(put.status).toBeLessThan(300);
  await server.stop();
  // This start reads the zone from the database and files it.
  server = await startServer(ENV, dir);
  expect(dig('h299.snap.test')).toBe('10.1.1.43');
  // Logged once the new snapshot is on disk.
  await waitUntil('the snapshot is written', async () => server!.lines.some((l) => l.includes('zone index loaded')));
  await server.stop();
  server = undefined;
  return dir;
}

describe('a damaged start-up snapshot', () => {
  it('cut short: not used, every zone read from the database, counted as unreadable', async () => {
    const dir = await filedZone();
    const file = path.join(dir, SNAPSHOT_FILE);
    fs.truncateSync(file, fs.statSync(file).size - 7);
    server = await startServer(ENV, dir);
    expect(dig('h299.snap.test')).toBe('10.1.1.43');
    await waitUntil('the fault is counted', async () => (await faults('unreadable')) === 1);
    expect(await faults('zone_damaged')).toBe(0);
    expect(server.lines.join('\n')).toMatch(/zone index snapshot fault/);
  });

  it('a byte flipped in a zone: that zone read from the database and answered as stored, counted as zone_damaged', async () => {
    const dir = await filedZone();
    const file = path.join(dir, SNAPSHOT_FILE);
    const bytes = fs.readFileSync(file);
    // The address of h150, as filed: one digit of it changed.
    const at = bytes.indexOf('10.1.0.150');
    expect(at).toBeGreaterThan(0);
    bytes[at + 9] = '9'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    server = await startServer(ENV, dir);
    expect(dig('h150.snap.test')).toBe('10.1.0.150');
    await waitUntil('the fault is counted', async () => (await faults('zone_damaged')) === 1);
    expect(await faults('unreadable')).toBe(0);
  });
});
