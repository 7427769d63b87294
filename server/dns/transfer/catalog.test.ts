/**
 * The catalog zone (RFC 9432, version 2) with Knot DNS as its consumer: Knot is configured
 * once, with the catalog (`catalog-role: interpret`) and a template for its members; a zone
 * created through the API is then transferred and answered by Knot, and a deleted one
 * disappears from it, without any change to Knot's configuration.
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
const CATALOG = 'catalog.example.net';

/** Knot as a catalog consumer: the one configuration it keeps for the whole test (as in docs/dns.md). */
const knotConfig = (dir: string, port: number, primary: number) => `${knotPreamble(dir, port, primary)}template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
  - id: catalog-member
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: none
    master: zonedeck
    acl: notify-from-zonedeck
zone:
  - domain: ${CATALOG}
    master: zonedeck
    acl: notify-from-zonedeck
    catalog-role: interpret
    catalog-template: catalog-member
`;

let zd: RunningServer;
let knot: ChildProcess;
let dir: string;
let knotPort: number;
let conf: string;
let output = '';

async function askKnot(name: string, type: string): Promise<{ status: string; answer: string[] }> {
  try {
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(knotPort), '+time=1', '+tries=1', '+noall', '+comments', '+answer', name, type]);
    const status = /status: ([A-Z]+)/.exec(stdout)?.[1] ?? 'none';
    return { status, answer: stdout.split('\n').filter((l) => l && !l.startsWith(';')) };
  } catch {
    return { status: 'none', answer: [] };
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-catalog-'));
  knotPort = await freePort();
  zd = await startServer({ CATALOG_ZONE: CATALOG, SECONDARIES: `127.0.0.1:${knotPort}` });
  expect((await zd.api('POST', '/domains', { name: 'first.example' })).status).toBe(201);
  expect((await zd.api('POST', '/domains/first.example/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  conf = path.join(dir, 'knot.conf');
  fs.writeFileSync(conf, knotConfig(dir, knotPort, zd.dns));
  knot = spawn(daemonPath('knotd', 'knot'), ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  knot.stdout!.on('data', (d) => (output += d));
  knot.stderr!.on('data', (d) => (output += d));
});

afterAll(async () => {
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  await zd?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the catalog zone', () => {
  it('is served with NS invalid., version "2" and one PTR per zone, and cannot be created through the API', async () => {
    expect((await zd.dig('+short', CATALOG, 'NS')).trim()).toBe('invalid.');
    expect((await zd.dig('+short', `version.${CATALOG}`, 'TXT')).trim()).toBe('"2"');
    const axfr = await zd.dig('+noall', '+answer', CATALOG, 'AXFR');
    expect(axfr).toMatch(new RegExp(`^[0-9a-f]+\\.zones\\.${CATALOG.replace(/\./g, '\\.')}\\.\\s+0\\s+IN\\s+PTR\\s+first\\.example\\.$`, 'm'));
    const ixfr = await zd.dig('+noall', '+answer', CATALOG, 'IXFR=1');
    expect(ixfr.match(/\sPTR\s/g)?.length).toBe(1);
    const taken = await zd.api('POST', '/domains', { name: CATALOG });
    expect(taken.status).toBe(409);
    expect((await zd.api('POST', '/domains', { name: `sub.${CATALOG}` })).status).toBe(409);
    expect((await zd.api('POST', `/domains/${CATALOG}/records`, { name: 'x', record_type: 'TXT', content: 'no' })).status).toBe(404);
  });

  it('gives a zone deleted and created again a new member label, and moves the serial each time', async () => {
    const label = async () => /^([0-9a-f]+)\.zones\..*PTR\s+again\.example\.$/m.exec(await zd.dig('+noall', '+answer', CATALOG, 'AXFR'))?.[1];
    const serial = async () => Number((await zd.dig('+short', CATALOG, 'SOA')).split(' ')[2]);
    const s0 = await serial();
    expect((await zd.api('POST', '/domains', { name: 'again.example' })).status).toBe(201);
    const first = await label();
    const s1 = await serial();
    expect((await zd.api('DELETE', '/domains/again.example')).status).toBe(200);
    expect(await label()).toBeUndefined();
    const s2 = await serial();
    expect((await zd.api('POST', '/domains', { name: 'again.example' })).status).toBe(201);
    const second = await label();
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(s0 < s1 && s1 < s2 && s2 < (await serial())).toBe(true);
  });
});

describe('Knot as a catalog consumer', () => {
  it('serves the zones the catalog lists when it starts', async () => {
    const ok = await eventually(async () => (await askKnot('www.first.example', 'A')).answer.some((l) => l.endsWith('192.0.2.1')), 100, 100);
    expect(ok, output).toBe(true);
  });

  it('transfers and answers a zone created through the API, with no change to its configuration', async () => {
    const before = fs.readFileSync(conf, 'utf8');
    expect((await zd.api('POST', '/domains', { name: 'created.example' })).status).toBe(201);
    expect((await zd.api('POST', '/domains/created.example/records', { name: 'www', record_type: 'A', content: '192.0.2.7' })).status).toBe(200);
    const ok = await eventually(async () => (await askKnot('www.created.example', 'A')).answer.some((l) => l.endsWith('192.0.2.7')), 100, 100);
    expect(ok, output).toBe(true);
    expect(fs.readFileSync(conf, 'utf8')).toBe(before);
    // Knot heard of it by NOTIFY (its refresh timer is an hour): zonedeck's for the catalog.
    expect(output).toMatch(/\[catalog\.example\.net\.\] notify, incoming/);
  });

  it('drops a zone deleted through the API', async () => {
    expect((await askKnot('created.example', 'SOA')).status).toBe('NOERROR');
    expect((await zd.api('DELETE', '/domains/created.example')).status).toBe(200);
    const ok = await eventually(async () => (await askKnot('created.example', 'SOA')).status === 'REFUSED', 100, 100);
    expect(ok, output).toBe(true);
    expect((await askKnot('www.first.example', 'A')).status).toBe('NOERROR');
  });
});
