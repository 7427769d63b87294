/**
 * `zones transfer … --tsig alg:name:secret`: the migration from a primary that only transfers
 * to a key. From Knot DNS (an independent TSIG implementation) and from zonedeck itself, with
 * every message of the answer verified; a wrong secret or no key is refused, and nothing is stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../testing/test-server';
import { cli, tempDataDir } from '../testing/server-process';
import { daemonPath } from '../testing/daemons';

const SECRET = Buffer.alloc(64, 0x5a).toString('base64');
let knot: ChildProcess;
let knotPort: number;
let knotDir: string;
let knotLog = '';
let zd: RunningServer;
let zdKey: string;
const stores: string[] = [];

/** A fresh store with user bob, for the CLI to transfer into. */
function store(): string {
  const dir = tempDataDir();
  stores.push(dir);
  cli(dir, 'users', 'add', 'bob', '--init');
  return dir;
}

const knotd = () => daemonPath('knotd', 'knot');

beforeAll(async () => {
  knotPort = await freePort();
  knotDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-primary-'));
  fs.writeFileSync(
    path.join(knotDir, 'legacy.example.zone'),
    [
      '$ORIGIN legacy.example.',
      '$TTL 3600',
      '@ SOA ns1.legacy.example. hostmaster.legacy.example. 7 3600 900 604800 300',
      '@ NS ns1.legacy.example.',
      'ns1 A 192.0.2.53',
      'www 300 A 192.0.2.80',
      'mail MX 10 mx.legacy.example.',
      'mx A 192.0.2.25',
      '_sip._tcp SRV 10 5 5060 www.legacy.example.',
      'txt TXT "hello from knot"',
      '',
    ].join('\n'),
  );
  const conf = path.join(knotDir, 'knot.conf');
  fs.writeFileSync(
    conf,
    `server:\n    rundir: "${knotDir}"\n    listen: 127.0.0.1@${knotPort}\nlog:\n  - target: stdout\n    any: info\ndatabase:\n    storage: "${knotDir}"\nkey:\n  - id: migrate-key\n    algorithm: hmac-sha512\n    secret: ${SECRET}\nacl:\n  - id: transfer-with-key\n    key: migrate-key\n    action: transfer\nzone:\n  - domain: legacy.example\n    storage: "${knotDir}"\n    file: legacy.example.zone\n    acl: transfer-with-key\n`,
  );
  knot = spawn(knotd(), ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  knot.stdout!.on('data', (d) => (knotLog += d));
  knot.stderr!.on('data', (d) => (knotLog += d));
  expect(await eventually(async () => /loaded, serial/.test(knotLog), 100, 100), knotLog).toBe(true);

  zd = await startServer({ AXFR_ALLOW: '192.0.2.1/32' });
  expect((await zd.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await zd.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  zdKey = cli(zd.dir, 'tsig', 'create', 'admin', 'migrate', '--read-only').at(-1)!;
  expect(await eventually(async () => /NOERROR/.test(await zd.dig('-y', zdKey, 'example.com', 'SOA')), 50, 100)).toBe(true);
}, 90_000);

afterAll(async () => {
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(knotDir, { recursive: true, force: true });
  for (const d of stores) fs.rmSync(d, { recursive: true, force: true });
  await zd?.stop();
});

const names = (dir: string, zone: string) => cli(dir, 'zones', 'export', zone).filter((l) => !l.startsWith('$') && !l.startsWith(';') && l.trim() !== '');

describe('zones transfer --tsig', () => {
  it('pulls a zone from Knot that transfers only to the key, every message verified', () => {
    const dir = store();
    const out = cli(dir, 'zones', 'transfer', 'bob', 'legacy.example', `127.0.0.1:${knotPort}`, '--tsig', `hmac-sha512:migrate-key:${SECRET}`);
    expect(out.join('\n')).toMatch(/legacy\.example: change \d+: added \d+ and removed \d+ records/);
    const zone = names(dir, 'legacy.example').join('\n');
    expect(zone).toMatch(/www\s+300\s+IN\s+A\s+192\.0\.2\.80/);
    expect(zone).toMatch(/hello from knot/);
    expect(zone).toMatch(/_sip\._tcp\s+\d+\s+IN\s+SRV\s+10 5 5060 www\.legacy\.example\./);
  });

  it('pulls a zone from zonedeck itself, outside its AXFR_ALLOW, with a key of the zone owner', () => {
    const dir = store();
    cli(dir, 'zones', 'transfer', 'bob', 'example.com', `127.0.0.1:${zd.dns}`, '--tsig', zdKey);
    expect(names(dir, 'example.com').join('\n')).toMatch(/www\s+\d+\s+IN\s+A\s+192\.0\.2\.1/);
  });

  it('refuses a wrong secret, a missing key and a malformed --tsig, storing nothing', () => {
    const dir = store();
    const wrong = `hmac-sha512:migrate-key:${Buffer.alloc(64, 1).toString('base64')}`;
    expect(() => cli(dir, 'zones', 'transfer', 'bob', 'legacy.example', `127.0.0.1:${knotPort}`, '--tsig', wrong)).toThrow(/BADSIG|NOTAUTH|did not verify/);
    expect(() => cli(dir, 'zones', 'transfer', 'bob', 'legacy.example', `127.0.0.1:${knotPort}`)).toThrow(/refused|NOTAUTH|REFUSED/);
    expect(() => cli(dir, 'zones', 'transfer', 'bob', 'legacy.example', `127.0.0.1:${knotPort}`, '--tsig', 'hmac-md5:k:c2VjcmV0')).toThrow(/--tsig must be one of hmac-sha256/);
    expect(() => cli(dir, 'zones', 'export', 'legacy.example')).toThrow(/no domain named legacy\.example/);
  });
});
