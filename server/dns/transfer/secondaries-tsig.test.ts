/**
 * Knot DNS as a secondary that speaks to zonedeck only with TSIG: zonedeck's AXFR_ALLOW
 * excludes Knot's address, so only the key opens the transfer; Knot's ACL takes NOTIFY only
 * when signed with the key, and its refresh timer is hours, so only a signed NOTIFY can bring
 * an API change over in time.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';
import { daemonPath } from '../../testing/daemons';

const run = promisify(execFile);

const knotd = () => daemonPath('knotd', 'knot');

const KEY = 'knot-xfr';

/** Knot's configuration with our key: the remote signs with it, and NOTIFY must carry it. */
const knotConfig = (dir: string, port: number, primary: number, algorithm: string, secret: string) => `server:
    rundir: "${dir}"
    listen: 127.0.0.1@${port}
log:
  - target: stdout
    any: info
database:
    storage: "${dir}"
key:
  - id: ${KEY}
    algorithm: ${algorithm}
    secret: ${secret}
remote:
  - id: zonedeck
    address: 127.0.0.1@${primary}
    key: ${KEY}
acl:
  - id: notify-from-zonedeck
    address: 127.0.0.1
    key: ${KEY}
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

let zd: RunningServer;
let knot: ChildProcess;
let dir: string;
let port: number;
let output = '';

async function ask(name: string, type: string): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', name, type]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  port = await freePort();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-tsig-'));
  // The service's own key (NOTIFY_TSIG), which signs NOTIFY and opens the transfers: never a tenant's.
  const y = `hmac-sha384:${KEY}:${randomBytes(48).toString('base64')}`;
  zd = await startServer({ AXFR_ALLOW: '192.0.2.1/32', SECONDARIES: `127.0.0.1:${port} ${KEY}`, NOTIFY_TSIG: y });
  const [algorithm, , secret] = y.split(':');
  expect((await zd.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await zd.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  expect(await zd.dig('-y', y, 'example.com', 'SOA')).toMatch(/status: NOERROR/);
  const conf = path.join(dir, 'knot.conf');
  fs.writeFileSync(conf, knotConfig(dir, port, zd.dns, algorithm!, secret!));
  knot = spawn(knotd(), ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  knot.stdout!.on('data', (d) => (output += d));
  knot.stderr!.on('data', (d) => (output += d));
});

afterAll(async () => {
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await zd?.stop();
});

it('transfers the zone with TSIG from an address outside AXFR_ALLOW', async () => {
  const ok = await eventually(async () => (await ask('www.example.com', 'A')).join() === '192.0.2.1', 100, 100);
  expect(ok, output).toBe(true);
  expect(output).toMatch(/AXFR, incoming, remote 127\.0\.0\.1@\d+, finished/);
  expect(output).not.toMatch(/BADSIG|BADKEY|failed to verify|denied/i);
});

it('takes a NOTIFY signed with the key after an API change, and serves the new record', async () => {
  const content = 'pushed by a signed notify';
  expect((await zd.api('POST', '/domains/example.com/records', { name: 'signed', record_type: 'TXT', content })).status).toBe(200);
  const ok = await eventually(async () => (await ask('signed.example.com', 'TXT')).join() === `"${content}"`, 100, 100);
  expect(ok, output).toBe(true);
  // Knot's ACL takes NOTIFY only with the key; an unsigned or badly signed one would be logged as denied.
  expect(output).toMatch(/notify, incoming, remote 127\.0\.0\.1@\d+, serial \d+/i);
  expect(output).not.toMatch(/denied|failed to verify|BADSIG|BADKEY/i);
  const [theirs] = await ask('example.com', 'SOA');
  const [ours] = (await zd.dig('+short', 'example.com', 'SOA')).trim().split('\n');
  expect(theirs).toBe(ours);
});

it('(control) Knot denies the same NOTIFY unsigned, so the one above was signed', async () => {
  const { notifyMessage } = await import('./notify');
  const soa = {
    name: 'example.com',
    type: 6,
    ttl: 3600,
    data: [{ mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: 4_000_000_000, refresh: 10800, retry: 3600, expire: 1209600, minimum: 3600 }],
  };
  const reply = await new Promise<Buffer | null>((resolve) => {
    const sock = dgram.createSocket('udp4');
    const timer = setTimeout(() => (sock.close(), resolve(null)), 2000);
    sock.on('message', (m) => (clearTimeout(timer), sock.close(), resolve(m)));
    sock.send(notifyMessage(0x4242, soa), port, '127.0.0.1');
  });
  // NOTAUTH: Knot's answer to a NOTIFY its ACL denies for want of the key (logged only at debug level).
  expect(reply, output).not.toBeNull();
  expect(reply![3]! & 0x0f).toBe(9);
});
