/**
 * Interop with real secondaries: Knot DNS and NSD, both listed in SECONDARIES, transfer a
 * zone from zonedeck by AXFR, get a NOTIFY after an API change, fetch just that change by
 * IXFR from the zone history (RFC 1995) and answer the new record. Their refresh timers are hours: only the NOTIFY can bring the change in time.
 * Once DNSSEC is on, they serve the signed zone as transferred, and BIND's validator accepts
 * their answers and their NSEC proofs.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPath, knotPreamble } from '../../testing/daemons';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
/** A secondary name server run by the test: its port, temp dir, process and log. */
class Secondary {
  readonly dir: string;
  child?: ChildProcess;
  private output = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly configText: (dir: string, port: number, primary: number) => string,
    private readonly argv: (conf: string) => string[],
    private readonly logFile?: string,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `zonedeck-${name}-`));
  }

  start(primaryPort: number): void {
    const conf = path.join(this.dir, `${this.name}.conf`);
    fs.writeFileSync(conf, this.configText(this.dir, this.port, primaryPort));
    const [cmd, ...args] = this.argv(conf);
    this.child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d) => (this.output += d));
    this.child.stderr!.on('data', (d) => (this.output += d));
  }

  log(): string {
    const file = this.logFile && path.join(this.dir, this.logFile);
    return this.output + (file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

const knotConfig = (dir: string, port: number, primary: number) => `${knotPreamble(dir, port, primary)}template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
zone:
  - domain: example.com
    master: zonedeck
    acl: notify-from-zonedeck
`;

const nsdConfig = (dir: string, port: number, primary: number) => `server:
    ip-address: 127.0.0.1
    port: ${port}
    zonesdir: "${dir}"
    pidfile: "${dir}/nsd.pid"
    database: ""
    xfrdfile: "${dir}/xfrd.state"
    zonelistfile: "${dir}/zone.list"
    xfrdir: "${dir}"
    username: ""
    chroot: ""
    logfile: "${dir}/nsd.log"
    verbosity: 2
remote-control:
    control-enable: no
zone:
    name: example.com
    zonefile: example.com.zone
    allow-notify: 127.0.0.1 NOKEY
    request-xfr: 127.0.0.1@${primary} NOKEY
`;

let zd: RunningServer;
let secondaries: Secondary[] = [];

/** Asks a secondary (not zonedeck) with dig; returns the +short lines. */
async function ask(sec: Secondary, name: string, type: string): Promise<string[]> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(sec.port), '+short', '+time=1', '+tries=1', name, type]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  const knotPort = await freePort();
  const nsdPort = await freePort();
  secondaries = [
    new Secondary('knot', knotPort, knotConfig, (conf) => [daemonPath('knotd', 'knot'), '-c', conf]),
    new Secondary('nsd', nsdPort, nsdConfig, (conf) => [daemonPath('nsd', 'nsd'), '-d', '-c', conf], 'nsd.log'),
  ];
  zd = await startServer({ SECONDARIES: `127.0.0.1:${knotPort},127.0.0.1:${nsdPort}` });
  expect((await zd.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  expect((await zd.api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  for (const sec of secondaries) sec.start(zd.dns);
});

afterAll(async () => {
  for (const sec of secondaries) await sec.stop();
  await zd?.stop();
});

describe.each(['knot', 'nsd'])('%s as a secondary', (name) => {
  const sec = () => secondaries.find((s) => s.name === name)!;

  it('transfers the zone by AXFR and answers from it', async () => {
    const ok = await eventually(async () => (await ask(sec(), 'www.example.com', 'A')).join() === '192.0.2.1', 100, 100);
    expect(ok, sec().log()).toBe(true);
    expect((await ask(sec(), 'example.com', 'SOA'))[0]).toMatch(/^ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. \d+ /);
  });

  it('gets a NOTIFY after an API change and serves the new record', async () => {
    const content = `pushed to ${name} by notify`;
    expect((await zd.api('POST', '/domains/example.com/records', { name: `new-${name}`, record_type: 'TXT', content })).status).toBe(200);
    const ok = await eventually(async () => (await ask(sec(), `new-${name}.example.com`, 'TXT')).join() === `"${content}"`, 100, 100);
    expect(ok, sec().log()).toBe(true);
    expect(sec().log()).toMatch(/notify.*(incoming|from 127\.0\.0\.1)/i);
    const [theirs] = await ask(sec(), 'example.com', 'SOA');
    const [ours] = (await zd.dig('+short', 'example.com', 'SOA')).trim().split('\n');
    expect(theirs).toBe(ours);
    // The change came as a delta from the zone history (RFC 1995), not as the whole zone.
    const transfers = zd.logs.filter((l) => l.msg === 'zone transfer' && l.type === 'IXFR' && l.mode === 'incremental');
    expect(transfers.length, JSON.stringify(zd.logs.filter((l) => l.msg === 'zone transfer'))).toBeGreaterThanOrEqual(name === 'knot' ? 1 : 2);
    if (name === 'knot') expect(sec().log()).toMatch(/IXFR, incoming, remote 127\.0\.0\.1@\d+, finished/);
  });
});

describe.each(['knot', 'nsd'])('%s as a secondary of a signed zone', (name) => {
  const sec = () => secondaries.find((s) => s.name === name)!;

  it('serves the zone signed once DNSSEC is on, with answers and NSEC proofs that validate', async () => {
    // Idempotent: the second secondary's run finds DNSSEC already on, with the same key.
    const res = await zd.api('PUT', '/domains/example.com', { dnssec_enabled: true });
    expect(res.status).toBe(200);
    const key = ((await res.json()) as { dnskey_records: string[] }).dnskey_records[0]!.split(' ').at(-1)!;
    const ok = await eventually(async () => (await ask(sec(), 'example.com', 'DNSKEY')).join('').replace(/\s/g, '').includes(key), 100, 100);
    expect(ok, sec().log()).toBe(true);
    const anchor = path.join(sec().dir, 'anchor.conf');
    fs.writeFileSync(anchor, `trust-anchors { "example.com." static-key 257 3 13 "${key}"; };\n`);
    const delv = async (qname: string) => {
      const out = await run('delv', ['@127.0.0.1', '-p', String(sec().port), '-a', anchor, '+root=example.com', qname, 'A']).catch((e: { stdout?: string; stderr?: string }) => e);
      return `${out.stdout ?? ''}${out.stderr ?? ''}`;
    };
    expect(await delv('www.example.com')).toMatch(/; fully validated[\s\S]*192\.0\.2\.1/);
    // The secondary proves NXDOMAIN from the transferred NSEC chain (no compact denial there).
    expect(await delv('nope.example.com')).toMatch(/; negative response, fully validated/);
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(sec().port), '+dnssec', '+time=1', '+tries=2', 'nope.example.com', 'A']);
    expect(stdout).toMatch(/status: NXDOMAIN/);
    expect(stdout).toMatch(/IN\s+NSEC\s/);
    // A signed zone's RRSIG and NSEC changes are not in the history: IXFR falls back to the whole zone.
    expect(zd.logs.some((l) => l.msg === 'zone transfer' && l.type === 'IXFR' && l.mode === 'full')).toBe(true);
  });
});
