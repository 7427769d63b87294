/**
 * Interop with a real secondary: Knot DNS (knotd) transfers a zone from zonedeck by AXFR,
 * gets a NOTIFY after an API change, transfers again and answers the new record.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from './test-server';

const run = promisify(execFile);
const KNOTD = fs.existsSync('/usr/sbin/knotd') ? '/usr/sbin/knotd' : 'knotd';

let s: RunningServer;
let knot: ChildProcess;
let knotPort: number;
let knotDir: string;
let knotLog = '';

function knotConfig(dir: string, port: number, primaryPort: number): string {
  return `server:
    rundir: "${dir}"
    listen: 127.0.0.1@${port}
log:
  - target: stdout
    any: info
database:
    storage: "${dir}"
remote:
  - id: zonedeck
    address: 127.0.0.1@${primaryPort}
acl:
  - id: notify-from-zonedeck
    address: 127.0.0.1
    action: notify
template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: example.com
    master: zonedeck
    acl: notify-from-zonedeck
`;
}

/** Asks Knot (not zonedeck) with dig; returns the +short lines. */
async function askKnot(name: string, type: string): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(knotPort), '+short', '+time=1', '+tries=1', name, type]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  knotPort = await freePort();
  s = await startServer({ SECONDARIES: `127.0.0.1:${knotPort}` });
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await s.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  knotDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-'));
  fs.writeFileSync(path.join(knotDir, 'knot.conf'), knotConfig(knotDir, knotPort, s.dns));
  knot = spawn(KNOTD, ['-c', path.join(knotDir, 'knot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  knot.stdout!.on('data', (d) => (knotLog += d));
  knot.stderr!.on('data', (d) => (knotLog += d));
});

afterAll(async () => {
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  await s?.stop();
  if (knotDir) fs.rmSync(knotDir, { recursive: true, force: true });
});

describe('Knot as a secondary', () => {
  it('transfers the zone by AXFR and answers from it', async () => {
    const ok = await eventually(async () => (await askKnot('www.example.com', 'A')).join() === '192.0.2.1', 100, 100);
    expect(ok, knotLog).toBe(true);
    const soa = await askKnot('example.com', 'SOA');
    expect(soa[0]).toMatch(/^ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. \d+ /);
  });

  it('gets a NOTIFY after an API change and serves the new record', async () => {
    expect((await s.api('POST', '/domains/example.com/records', { name: 'new', record_type: 'TXT', content: 'pushed by notify' })).status).toBe(200);
    // Knot's refresh timer is 3 hours: only the NOTIFY can make this appear within the bound.
    const ok = await eventually(async () => (await askKnot('new.example.com', 'TXT')).join() === '"pushed by notify"', 100, 100);
    expect(ok, knotLog).toBe(true);
    expect(knotLog).toMatch(/notify, incoming, remote 127\.0\.0\.1@\d+, serial \d+/i);
    const [knotSoa] = await askKnot('example.com', 'SOA');
    const [ourSoa] = (await s.dig('+short', 'example.com', 'SOA')).trim().split('\n');
    expect(knotSoa).toBe(ourSoa);
  });
});
