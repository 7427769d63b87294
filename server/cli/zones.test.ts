/**
 * Zones in and out through the admin CLI, with real programs: Knot serves a
 * zone of a few thousand records as a primary, `zones transfer` pulls it by AXFR, and for
 * every name and type in it `dig` gets the same answer from zonedeck as from Knot. Then
 * `zones export` and `zones import` round-trip through a file.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../core/record-types';
import { eventually, freePort } from '../testing/test-server';
import { daemonPath } from '../testing/daemons';
import { cli, startServer, tempDataDir, type ServerProcess } from '../testing/server-process';

const run = promisify(execFile);
const ZONE = 'example.org';

/** A zone with one record of every registry type and a few thousand ordinary ones. */
function zoneText(): { text: string; questions: string[] } {
  const lines = ['$ORIGIN example.org.', '$TTL 3600', '@ IN SOA ns1.old.example. admin.example.org. 7 7200 900 1209600 300', '@ IN NS ns1.old.example.', '@ IN NS ns2.old.example.'];
  const questions: string[] = [];
  const add = (name: string, type: string, rdata: string, ttl = 3600) => {
    lines.push(`${name} ${ttl} IN ${type} ${rdata}`);
    questions.push(`${name === '@' ? ZONE : `${name}.${ZONE}`} ${type}`);
  };
  for (const t of RECORD_TYPES) {
    if (['NS', 'DS', 'CNAME', 'DNAME', 'ALIAS'].includes(t.type)) continue;
    add(`t-${t.type.toLowerCase()}`, t.type, t.zoneText(t.normalize(t.example)));
  }
  add('child', 'NS', 'ns1.child.example.net.');
  add('child', 'DS', RECORD_TYPES.find((t) => t.type === 'DS')!.zoneText(RECORD_TYPES.find((t) => t.type === 'DS')!.normalize(RECORD_TYPES.find((t) => t.type === 'DS')!.example)));
  add('alias', 'CNAME', 'host0.example.org.');
  add('@', 'MX', '10 mail.example.org.');
  add('@', 'TXT', '"v=spf1 mx -all"');
  for (let i = 0; i < 1500; i++) {
    add(`host${i}`, 'A', `10.1.${i >> 8}.${i & 255}`, 300);
    if (i % 3 === 0) add(`host${i}`, 'AAAA', `2001:db8::${i.toString(16)}`, 300);
    if (i % 5 === 0) add(`host${i}`, 'TXT', `"host ${i}" "second string"`);
    if (i % 7 === 0) add(`_svc${i}._tcp`, 'SRV', `0 5 ${1000 + i} host${i}.example.org.`);
  }
  return { text: `${lines.join('\n')}\n`, questions: [...new Set(questions)] };
}

let dir: string;
let knot: ChildProcess;
let knotPort: number;
let zd: ServerProcess | undefined;
let questions: string[];
const dataDir = tempDataDir();

/** Every answer line (owner, type, data; no TTL) for the questions, asked of one server with dig -f. */
async function answers(port: number): Promise<string[]> {
  const batch = path.join(dir, `q-${port}.txt`);
  fs.writeFileSync(batch, questions.map((q) => `${q.split(' ')[0]} ${q.split(' ')[1]}`).join('\n'));
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+norec', '+noall', '+answer', '+time=2', '+tries=2', '-f', batch], { maxBuffer: 1 << 26 });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [owner, ttl, , type, ...data] = l.split(/\s+/);
      // TXT is its text: the boundaries between a record's strings are not kept.
      const rdata = type === 'TXT' ? JSON.stringify(data.join(' ').replace(/" "/g, '')) : data.join(' ');
      return `${owner} ${ttl} ${type} ${rdata}`;
    })
    .sort();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-primary-'));
  const zone = zoneText();
  questions = zone.questions;
  fs.writeFileSync(path.join(dir, `${ZONE}.zone`), zone.text);
  knotPort = await freePort();
  fs.writeFileSync(
    path.join(dir, 'knot.conf'),
    `server:\n    rundir: "${dir}"\n    listen: 127.0.0.1@${knotPort}\nlog:\n  - target: stdout\n    any: info\ndatabase:\n    storage: "${dir}"\nacl:\n  - id: transfer\n    address: 127.0.0.1\n    action: transfer\nzone:\n  - domain: ${ZONE}\n    file: "${dir}/${ZONE}.zone"\n    acl: transfer\n`,
  );
  knot = spawn(daemonPath('knotd', 'knot'), ['-c', path.join(dir, 'knot.conf')], { stdio: 'ignore' });
  const up = await eventually(
    async () => (await run('dig', ['@127.0.0.1', '-p', String(knotPort), '+short', '+time=1', '+tries=1', ZONE, 'SOA']).catch(() => ({ stdout: '' }))).stdout.includes('7200'),
    100,
    100,
  );
  expect(up).toBe(true);
  // No server has started on this data dir: the CLI creates its database.
  cli(dataDir, 'users', 'add', 'alice', '--init');
});

afterAll(async () => {
  await zd?.stop();
  if (knot && knot.exitCode === null) {
    const exited = new Promise((r) => knot.once('exit', r));
    knot.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('zones transfer', () => {
  it('pulls a zone from Knot by AXFR; dig then answers every name and type as Knot does', async () => {
    const out = cli(dataDir, 'zones', 'transfer', 'alice', ZONE, `127.0.0.1:${knotPort}`);
    expect(out[0]).toBe(`created ${ZONE} for alice`);
    expect(out[1]).toMatch(/^example\.org: change \d+: added \d+ and removed 0 records/);
    expect(out.join('\n')).toMatch(/ignored record \d+: @ NS: the apex NS set is managed by zonedeck/);
    expect(out.join('\n')).toMatch(/refresh_interval: 10800 -> 7200/);

    zd = await startServer({ DNS_PORT: '0' }, dataDir);
    // The apex NS set is zonedeck's own; everything else must be the same answer.
    const notApexNs = (l: string) => !/^example\.org\.\s\d+\sNS\s/.test(l);
    let ours: string[] = [];
    let theirs: string[] = [];
    // Asked again when they differ: one of 2,500 UDP exchanges of a dig batch can come back as
    // a stray packet (dig: "response not set") on either side; the answers must then match exactly.
    for (let attempt = 0; attempt < 3; attempt++) {
      ours = (await answers(zd.dnsPort!)).filter(notApexNs);
      theirs = (await answers(knotPort)).filter(notApexNs);
      if (JSON.stringify(ours) === JSON.stringify(theirs)) break;
    }
    expect(theirs.length).toBeGreaterThan(2500);
    expect(ours).toEqual(theirs);
  });

  it('says clearly when the primary refuses or cannot be reached, and changes nothing', async () => {
    const refused = (() => {
      try {
        cli(dataDir, 'zones', 'transfer', 'alice', 'other.example', `127.0.0.1:${knotPort}`);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(refused).toMatch(/refused the transfer: (NOTAUTH|REFUSED)/);
    const closed = await freePort();
    expect(() => cli(dataDir, 'zones', 'transfer', 'alice', 'other.example', `127.0.0.1:${closed}`)).toThrow(/cannot transfer from 127\.0\.0\.1:\d+/);
  });
});

describe('zones export and zones import', () => {
  it('export then import of the same file is a no-op; a changed file is one change set; errors name their lines', () => {
    const file = path.join(dir, 'export.zone');
    const text = cli(dataDir, 'zones', 'export', ZONE).join('\n');
    expect(text).toMatch(/^\$ORIGIN example\.org\.\n/);
    fs.writeFileSync(file, `${text}\n`);
    const again = cli(dataDir, 'zones', 'import', 'alice', ZONE, file);
    expect(again[0]).toMatch(/^example\.org: no change: added 0 and removed 0 records/);
    expect(again.slice(1)).toEqual([expect.stringMatching(/ignored line \d+: @ NS: /), expect.stringMatching(/ignored line \d+: @ NS: /)]);
    fs.writeFileSync(file, `${text}\nnew-host 300 IN A 192.0.2.77\n`);
    expect(cli(dataDir, 'zones', 'import', 'alice', ZONE, file, '--dry-run')[0]).toMatch(/would add 1 and remove 0 records/);
    expect(cli(dataDir, 'zones', 'import', 'alice', ZONE, file)[0]).toMatch(/change \d+: added 1 and removed 0 records/);
    fs.writeFileSync(file, 'a IN A 1.2.3\n$INCLUDE /etc/passwd\n');
    expect(() => cli(dataDir, 'zones', 'import', 'alice', ZONE, file)).toThrow(/line 1: .*\n.*line 2: .*\$INCLUDE/);
  });
});
