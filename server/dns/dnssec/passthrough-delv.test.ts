/**
 * A signed primary's zone served as transferred: a zone signed by dnssec-signzone (NSEC, NSEC3
 * without salt or extra iterations, NSEC3 with opt-out) is served by Knot as the primary, pulled by
 * the AXFR client for a secondary, stored in a real SQLite store and served by zonedeck's DNS
 * server. `delv`, holding only the primary's KSK, validates zonedeck's positive answers, CNAME and
 * wildcard answers, NODATA (at a name, at an empty non-terminal, at a wildcard), NXDOMAIN and the
 * DS answers at a signed and an unsigned delegation; referrals carry the DS or the proof of none;
 * without DO no DNSSEC record shows unless asked for, and NSEC3 owners are no names.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config';
import { createLogger } from '../../log';
import { ZoneEvents } from '../../services/changes/events';
import { openStore } from '../../store/open';
import type { Store } from '../../store/types';
import { daemonPath } from '../../testing/daemons';
import { signZone, type SignedZone } from '../../testing/signed-zone';
import { eventually, freePort } from '../../testing/test-server';
import { startDns, type DnsServer } from '../server';
import { transferZone } from '../transfer/axfr-client';

const run = promisify(execFile);
const ZONE = 'example.test';
const SOA = { mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: 2026112801, refresh: 10800, retry: 3600, expire: 1209600, minimum: 3600 };

interface Setup {
  signed: SignedZone;
  knot: ChildProcess;
  /** Knot's port: the same signed zone from a reference server. */
  knotPort: number;
  store: Store;
  dns: DnsServer;
  dir: string;
  config: Config;
}

/** Knot serving the signed file as the hidden primary. */
async function startKnot(dir: string, signed: SignedZone): Promise<{ knot: ChildProcess; port: number }> {
  const port = await freePort();
  fs.writeFileSync(path.join(dir, `${ZONE}.zone`), signed.text);
  fs.writeFileSync(
    path.join(dir, 'knot.conf'),
    `server:\n    rundir: "${dir}"\n    listen: 127.0.0.1@${port}\ndatabase:\n    storage: "${dir}"\nacl:\n  - id: transfer\n    address: 127.0.0.1\n    action: transfer\nzone:\n  - domain: ${ZONE}\n    file: "${dir}/${ZONE}.zone"\n    acl: transfer\n`,
  );
  const knot = spawn(daemonPath('knotd', 'knot'), ['-c', path.join(dir, 'knot.conf')], { stdio: 'ignore' });
  const soa = async () => (await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', ZONE, 'SOA']).catch(() => ({ stdout: '' }))).stdout;
  expect(await eventually(async () => (await soa()).includes(String(SOA.serial)), 100, 100)).toBe(true);
  return { knot, port };
}

async function setUp(denial: 'nsec' | 'nsec3' | 'nsec3-optout'): Promise<Setup> {
  const signed = signZone(ZONE, SOA, denial);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-passthrough-'));
  const { knot, port } = await startKnot(dir, signed);
  // What an import keeps, and what a secondary keeps.
  const imported = await transferZone('127.0.0.1', port, ZONE);
  expect(imported.records.some((r) => ['RRSIG', 'NSEC', 'NSEC3', 'DNSKEY'].includes(r.record_type))).toBe(false);
  expect(imported.ignored.some((i) => i.record_type === 'RRSIG' && i.reason === 'zonedeck signs zones itself')).toBe(true);
  const transferred = await transferZone('127.0.0.1', port, ZONE, undefined, 10_000, { secondary: true });
  expect(transferred.ignored).toEqual([]);
  expect(transferred.records.length).toBe(signed.records.length);

  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off', DNS_HOST: '127.0.0.1', DNS_PORT: '0' });
  const store = await openStore(config);
  const now = new Date().toISOString();
  await store.transaction(async (tx) => {
    const user = await tx.users.insert({ username: 'alice', password_hash: 'none', created_at: now });
    const domain = await tx.domains.insert({
      user_id: user.id,
      name: ZONE,
      serial_number: SOA.serial,
      refresh_interval: SOA.refresh,
      retry_interval: SOA.retry,
      expire_interval: SOA.expire,
      minimum_ttl: SOA.minimum,
      dnssec_enabled: false,
      delegated: false,
      created_at: now,
      updated_at: now,
      // A secondary as its transfer leaves it: the primary's SOA names, answered until SOA expire.
      kind: 'secondary',
      primaries: [`127.0.0.1:${port}`],
      soa_mname: SOA.mname,
      soa_rname: SOA.rname,
      expires_at: new Date(Date.now() + SOA.expire * 1000).toISOString(),
    });
    await tx.records.insertMany(
      transferred.records.map((r) => ({ domain_id: domain.id, name: r.name, record_type: r.record_type, content: r.content, ttl: r.ttl, disabled: 0, created_at: now, updated_at: now })),
    );
  });
  const dns = await serve(config, store);
  return { signed, knot, knotPort: port, store, dns, dir, config };
}

/** zonedeck's DNS server over the store, the zone told it is a secondary. */
async function serve(config: Config, store: Store): Promise<DnsServer> {
  const dns = (await startDns(config, store, new ZoneEvents(), createLogger('silent')))!;
  await dns.sync.loaded;
  return dns;
}

async function tearDown(s: Setup | undefined): Promise<void> {
  if (!s) return;
  await s.dns.close();
  await s.store.close();
  if (s.knot.exitCode === null) {
    const exited = new Promise((r) => s.knot.once('exit', r));
    s.knot.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(s.dir, { recursive: true, force: true });
  fs.rmSync(s.signed.dir, { recursive: true, force: true });
}

function delv(s: Setup, name: string, type: string, port = s.dns.port): Promise<string> {
  const args = ['@127.0.0.1', '-p', String(port), '-a', s.signed.anchorFile, `+root=${ZONE}`, '+tcp', name, type];
  return run('delv', args).then(
    (r) => r.stdout,
    (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
  );
}

const dig = async (s: Setup, ...args: string[]) => (await run('dig', ['@127.0.0.1', '-p', String(s.dns.port), '+norec', '+time=2', '+tries=1', ...args])).stdout;
/** The types in one section of dig's answer (`ANSWER`, `AUTHORITY`). */
function sectionTypes(out: string, section: string): string[] {
  const m = new RegExp(`;; ${section} SECTION:\\n([\\s\\S]*?)(\\n\\n|$)`).exec(out);
  return m ? m[1]!.split('\n').map((l) => l.split(/\s+/)[3]!) : [];
}

const POSITIVE: [string, string][] = [
  [ZONE, 'SOA'],
  [ZONE, 'MX'],
  [ZONE, 'DNSKEY'],
  [`www.${ZONE}`, 'A'],
  [`www.${ZONE}`, 'AAAA'],
  [`txt.${ZONE}`, 'TXT'],
  [`alias.${ZONE}`, 'A'],
  [`anything.wild.${ZONE}`, 'TXT'],
  [`a.b.wild.${ZONE}`, 'A'],
  [`x.moved.${ZONE}`, 'TXT'],
  [`host.ent.${ZONE}`, 'A'],
  [`secure.${ZONE}`, 'DS'],
];
const NEGATIVE: [string, string][] = [
  [`www.${ZONE}`, 'TXT'],
  [`ent.${ZONE}`, 'A'],
  [`anything.wild.${ZONE}`, 'MX'],
  [`nothing.${ZONE}`, 'A'],
  [`deep.nothing.${ZONE}`, 'AAAA'],
  [`insecure.${ZONE}`, 'DS'],
];

describe.each(['nsec', 'nsec3', 'nsec3-optout'] as const)('a secondary of a primary signed with %s', (denial) => {
  let s: Setup | undefined;
  beforeAll(async () => {
    s = await setUp(denial);
  }, 60_000);
  afterAll(() => tearDown(s));

  /** delv's verdict (its first line) on zonedeck's answer, checked against its verdict on Knot's. */
  async function verdict(name: string, type: string): Promise<string> {
    const [ours, knots] = await Promise.all([delv(s!, name, type), delv(s!, name, type, s!.knotPort)]);
    expect(ours.split('\n')[0]).toBe(knots.split('\n')[0]);
    return ours.split('\n')[0]!;
  }

  it.each(POSITIVE)('delv validates %s %s', async (name, type) => {
    // An opt-out span over a name a wildcard answers: the validator cannot rule out an unsigned
    // delegation there (RFC 5155 §6), so the answer is insecure, from Knot as from zonedeck.
    const insecure = denial === 'nsec3-optout' && name.includes('.wild.');
    expect(await verdict(name, type)).toBe(insecure ? '; unsigned answer' : '; fully validated');
  });

  it.each(NEGATIVE)('delv validates the denial of %s %s', async (name, type) => {
    expect(await verdict(name, type)).toBe('; negative response, fully validated');
  });

  it('delv validates a CNAME to a name without the type asked: the CNAME signed, the denial behind it', async () => {
    const out = await delv(s!, `alias.${ZONE}`, 'TXT');
    expect(await verdict(`alias.${ZONE}`, 'TXT')).toBe('; fully validated');
    expect(out).toMatch(/www\.example\.test\.\s+\d+\s+IN\s+\\-TXT\s+;-\$NXRRSET/);
  });

  it('a referral carries the DS and its RRSIG, or the proof there is none', async () => {
    const secure = await dig(s!, '+dnssec', `www.secure.${ZONE}`, 'A');
    expect(sectionTypes(secure, 'AUTHORITY')).toEqual(['NS', 'DS', 'RRSIG']);
    const insecure = sectionTypes(await dig(s!, '+dnssec', `www.insecure.${ZONE}`, 'A'), 'AUTHORITY');
    expect(insecure[0]).toBe('NS');
    expect(insecure).toContain(denial === 'nsec' ? 'NSEC' : 'NSEC3');
    expect(insecure).toContain('RRSIG');
    expect(insecure).not.toContain('DS');
  });

  it('without DO, no DNSSEC record shows unless asked for by type; NSEC3 owners are no names', async () => {
    const plain = await dig(s!, `www.${ZONE}`, 'A');
    expect(sectionTypes(plain, 'ANSWER')).toEqual(['A']);
    const nx = await dig(s!, `nothing.${ZONE}`, 'A');
    expect(nx).toMatch(/status: NXDOMAIN/);
    expect(sectionTypes(nx, 'AUTHORITY')).toEqual(['SOA']);
    const sigs = s!.signed.records.filter((r) => r.name === 'www' && r.record_type === 'RRSIG').length;
    expect(sectionTypes(await dig(s!, `www.${ZONE}`, 'RRSIG'), 'ANSWER')).toEqual(Array(sigs).fill('RRSIG'));
    expect(sectionTypes(await dig(s!, ZONE, 'DNSKEY'), 'ANSWER')).toEqual(['DNSKEY', 'DNSKEY']);
    const hashed = s!.signed.records.find((r) => r.record_type === 'NSEC3');
    if (hashed) {
      const owner = `${hashed.name}.${ZONE}`;
      expect(await dig(s!, owner, 'A')).toMatch(/status: NXDOMAIN/);
      expect(sectionTypes(await dig(s!, owner, 'NSEC3'), 'ANSWER')).toEqual(['NSEC3']);
    }
  });

  it('restarted from its start-up snapshot, it serves the same proofs at once', async () => {
    await s!.dns.sync.snapshotWritten;
    await s!.dns.close();
    s!.dns = await serve(s!.config, s!.store);
    expect(s!.dns.sync.startup.restored).toBe(1);
    expect(await verdict(`deep.nothing.${ZONE}`, 'AAAA')).toBe('; negative response, fully validated');
    expect(await verdict(`www.${ZONE}`, 'A')).toBe('; fully validated');
  });

  it('an outgoing AXFR carries the DNSSEC records as stored', async () => {
    const out = await dig(s!, ZONE, 'AXFR');
    const count = (type: string) => out.split('\n').filter((l) => l.split(/\s+/)[3] === type).length;
    for (const type of ['RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'DNSKEY']) expect(count(type)).toBe(s!.signed.records.filter((r) => r.record_type === type).length);
  });
});
