/**
 * A signed zone in nsec3 mode on real sockets, checked with the tools an operator trusts: `delv`
 * (the zone's DNSKEY as its static trust anchor) validates positive, NODATA, empty non-terminal,
 * wildcard, NXDOMAIN and DS answers, the denial behind a CNAME and a referral to an unsigned
 * child (and fails them with another key); `kdig +dnssec` shows NSEC3 records with no salt and no
 * extra iterations and the NXDOMAIN rcode; `ldns-verify-zone` accepts the AXFR with its NSEC3
 * chain; and switching back to compact denial drops NSEC3PARAM.
 */
import { execFile } from 'node:child_process';
import type dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleIndex } from '../../testing/zone-fixture';
import { testKey } from '../../testing/test-keys';
import { freePort } from '../../testing/test-server';
import type { Zone } from '../index/zone';
import { createHandler } from '../wire/handler';
import { listenTcp, type TcpListener } from '../wire/tcp';
import { listenUdp } from '../wire/udp';

const run = promisify(execFile);
let dir: string;
let port: number;
let anchorFile: string;
let zone: Zone;
let udp: dgram.Socket;
let tcp: TcpListener;

/** A tool's whole output, its failure included; a tool that is missing says how to install it. */
async function tool(cmd: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 1 << 24 });
    return `${stdout}\n${stderr}`;
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error(`${cmd} is not installed: apt-get install bind9-dnsutils knot-dnsutils ldnsutils`);
    return `${err.stdout ?? ''}\n${err.stderr ?? ''}\nexit ${String(err.code)}`;
  }
}

/** delv's verdict: its first line. */
const delv = async (name: string, type = 'A') => (await tool('delv', ['@127.0.0.1', '-p', String(port), '-a', anchorFile, '+root=example.com', name, type])).split('\n')[0];
const kdig = (...args: string[]) => tool('kdig', [`@127.0.0.1`, '-p', String(port), '+norec', ...args]);
const dig = (...args: string[]) => tool('dig', [`@127.0.0.1`, '-p', String(port), '+norec', '+time=2', '+tries=1', ...args]);
/** The records of one section of kdig's or dig's answer, by type. */
const records = (out: string, section: string, type: string) =>
  (new RegExp(`;; ${section} SECTION:\\n([\\s\\S]*?)(\\n\\n|$)`).exec(out)?.[1] ?? '').split('\n').filter((l) => l.split(/\s+/)[3] === type);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-nsec3-'));
  const index = exampleIndex();
  const { key, row } = testKey('example.com');
  zone = index.get('example.com')!;
  zone.setKeys([key]);
  zone.setDenial('nsec3');
  anchorFile = path.join(dir, 'anchor.conf');
  fs.writeFileSync(anchorFile, `trust-anchors {\n  "example.com." static-key 257 3 13 "${row.public_key}";\n};\n`);
  const handler = createHandler(index, { transferAllowed: () => true });
  port = await freePort();
  udp = await listenUdp('127.0.0.1', port, handler.udp, () => {});
  tcp = await listenTcp('127.0.0.1', port, handler.tcp);
});

afterAll(async () => {
  udp?.close();
  await tcp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("delv with the zone's DNSKEY as trust anchor, nsec3 mode", () => {
  it.each([
    ['www.example.com', 'A'],
    ['example.com', 'MX'],
    ['example.com', 'NSEC3PARAM'],
    ['alias.example.com', 'A'],
    ['anything.wild.example.com', 'TXT'],
  ])('fully validates %s %s', async (name, type) => {
    expect(await delv(name, type)).toBe('; fully validated');
  });

  it.each([
    ['www.example.com', 'MX', 'NODATA'],
    ['b.c.example.com', 'TXT', 'an empty non-terminal'],
    ['anything.wild.example.com', 'MX', 'NODATA at a name a wildcard stands for'],
    ['sub.example.com', 'DS', 'no DS at an unsigned delegation'],
    ['nope.example.com', 'A', 'a name that does not exist'],
    ['deep.er.nope.example.com', 'AAAA', 'a name deep below nothing'],
    ['x.a.b.c.example.com', 'TXT', 'a name below an existing one'],
  ])('validates the denial of %s %s (%s)', async (name, type) => {
    expect(await delv(name, type)).toBe('; negative response, fully validated');
  });

  it('validates a CNAME to a name that does not exist: the CNAME signed, the NXDOMAIN behind it proved', async () => {
    const out = await tool('delv', ['@127.0.0.1', '-p', String(port), '-a', anchorFile, '+root=example.com', 'dangling.example.com', 'A']);
    expect(out.split('\n')[0]).toBe('; fully validated');
    expect(out).toMatch(/missing\.example\.com\.\s+\d+\s+IN\s+\\-ANY\s+;-\$NXDOMAIN/);
  });

  it('follows a referral to an unsigned child zone, its lack of DS proved: an unsigned answer, not a failure', async () => {
    // child.example.com is hosted here too, unsigned: delv asks the parent for its DS, gets the
    // NSEC3 matching the cut (NS only), and trusts the child's answer as insecure.
    expect(await delv('host.child.example.com', 'A')).toBe('; unsigned answer');
  });

  it('fails the same denials with a trust anchor of another key', async () => {
    const other = path.join(dir, 'other.conf');
    fs.writeFileSync(other, `trust-anchors {\n  "example.com." static-key 257 3 13 "${testKey('example.com').row.public_key}";\n};\n`);
    const out = await tool('delv', ['@127.0.0.1', '-p', String(port), '-a', other, '+root=example.com', 'nope.example.com', 'A']);
    expect(out).not.toMatch(/fully validated/);
    expect(out).toMatch(/resolution failed/);
  });
});

describe('NSEC3 records as kdig shows them', () => {
  it('an NXDOMAIN: the rcode kept, three NSEC3s (1 0 0 -) with their RRSIGs', async () => {
    const out = await kdig('+dnssec', 'nope.example.com', 'A');
    expect(out).toMatch(/status: NXDOMAIN/);
    const nsec3 = records(out, 'AUTHORITY', 'NSEC3');
    expect(nsec3).toHaveLength(3);
    for (const line of nsec3) expect(line).toMatch(/\sNSEC3\s+1 0 0 - [0-9a-v]{32}/i);
    expect(records(out, 'AUTHORITY', 'RRSIG').length).toBe(4);
    // The closest encloser, the apex, lists its real types.
    expect(out).toMatch(/onib9mgub9h0rml3cdf5bgrj59dkjhvk\.example\.com\.\s+\d+\s+IN\s+NSEC3\s+1 0 0 - \S+ A NS SOA MX RRSIG DNSKEY NSEC3PARAM CDS CDNSKEY/i);
    // Without DO: NXDOMAIN as always, nothing hashed.
    const plain = await kdig('nope.example.com', 'A');
    expect(plain).toMatch(/status: NXDOMAIN/);
    expect(plain).not.toMatch(/NSEC3/);
  });

  it('a referral to an unsigned child: the NSEC3 matching the cut, NS only, and no DS', async () => {
    const out = await kdig('+dnssec', 'x.sub.example.com', 'A');
    expect(records(out, 'AUTHORITY', 'NS').length).toBeGreaterThan(0);
    expect(records(out, 'AUTHORITY', 'DS')).toEqual([]);
    const [nsec3] = records(out, 'AUTHORITY', 'NSEC3');
    expect(nsec3).toMatch(/1 0 0 - [0-9a-v]{32} NS$/i);
  });

  it('a hashed owner name is no name of the zone (RFC 5155 §7.2.8): NXDOMAIN', async () => {
    const out = await kdig('+dnssec', 'mifdndt3nff3od53o7tla1hrff95jkuk.example.com', 'NSEC3');
    expect(out).toMatch(/status: NXDOMAIN/);
  });
});

describe('the signed zone by AXFR, nsec3 mode', () => {
  it('carries an NSEC3 chain and NSEC3PARAM, and ldns-verify-zone accepts it', async () => {
    const axfr = await dig('example.com', 'AXFR', '+nocmd', '+nostats');
    expect(axfr).toMatch(/\sNSEC3PARAM\s+1 0 0 -/);
    expect(axfr).not.toMatch(/\tNSEC\t/);
    // Every authoritative name, the delegation points and the empty non-terminals (c, b.c, wild).
    expect(axfr.split('\n').filter((l) => l.split(/\s+/)[3] === 'NSEC3').length).toBeGreaterThanOrEqual(20);
    const file = path.join(dir, 'example.com.zone');
    fs.writeFileSync(file, axfr);
    expect(await tool('ldns-verify-zone', [file])).toMatch(/Zone is verified and complete/);
  });
});

describe('switching back to compact denial', () => {
  it('drops NSEC3PARAM and answers with compact NSECs again', async () => {
    zone.setDenial('compact');
    expect(records(await dig('+dnssec', 'example.com', 'NSEC3PARAM'), 'ANSWER', 'NSEC3PARAM')).toEqual([]);
    const nx = await dig('+dnssec', 'nope.example.com', 'A');
    expect(nx).toMatch(/status: NOERROR/);
    expect(nx).toMatch(/NSEC\s+\\000\.nope\.example\.com\. RRSIG NSEC TYPE128/);
    expect(await delv('nope.example.com')).toBe('; negative response, fully validated');
    expect(await dig('example.com', 'AXFR', '+nocmd', '+nostats')).not.toMatch(/NSEC3/);
    zone.setDenial('nsec3');
    expect(records(await dig('example.com', 'NSEC3PARAM'), 'ANSWER', 'NSEC3PARAM')).toHaveLength(1);
  });
});
