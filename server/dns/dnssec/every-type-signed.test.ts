/**
 * A signed zone holding every record type of the registry, an apex ALIAS (resolved through a
 * tiny fake resolver of the test's own, so no network is needed) and the CDS/CDNSKEY the signer
 * adds, served by the real server and checked with the tools an operator trusts: `delv`
 * (the zone's DNSKEY as its static trust anchor) validates an answer of each type, the
 * ALIAS-synthesized apex A and AAAA included; `ldns-verify-zone` accepts the signed AXFR; and
 * once DNSSEC is off, the delete form (RFC 8078 §4) is served, unsigned.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printZoneFile } from '../../core/zone-file/printer';
import { EVERY_TYPE_SOA, EVERY_TYPE_ZONE, everyTypeRecords } from '../../testing/every-type-zone';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
const Z = EVERY_TYPE_ZONE;
const records = everyTypeRecords();
const CDN: Record<string, string[]> = { A: ['192.0.2.80', '192.0.2.81'], AAAA: ['2001:db8::80'] };

let s: RunningServer;
let resolver: dgram.Socket;
let dnskey: string;
let anchorFile: string;

async function tool(cmd: string, args: string[]): Promise<{ out: string; code: number }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 1 << 24 });
    return { out: `${stdout}\n${stderr}`, code: 0 };
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error(`${cmd} is not installed: apt-get install bind9-dnsutils ldnsutils`);
    return { out: `${err.stdout ?? ''}\n${err.stderr ?? ''}`, code: Number(err.code ?? 1) };
  }
}

const fqdn = (name: string) => (name === '@' ? `${Z}.` : `${name}.${Z}.`);
const delv = async (name: string, type: string) => (await tool('delv', ['@127.0.0.1', '-p', String(s.dns), '-a', anchorFile, `+root=${Z}`, name, type])).out;

beforeAll(async () => {
  // The recursive resolver of RESOLVER: it knows the CDN name the apex aliases, nothing else.
  const port = await freePort();
  resolver = dgram.createSocket('udp4');
  resolver.on('message', (msg, rinfo) => {
    const q = packet.decode(msg);
    const { name, type } = q.questions![0]!;
    const found = name.toLowerCase() === 'lb.cdn.example' ? CDN[type] : undefined;
    const reply = packet.encode({
      id: q.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (name.toLowerCase() === 'lb.cdn.example' ? 0 : 3),
      questions: q.questions,
      answers: (found ?? []).map((data) => ({ name, type: type as 'A', ttl: 300, data })),
    });
    resolver.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => resolver.bind(port, '127.0.0.1', () => r()));
  s = await startServer({ RESOLVER: `127.0.0.1:${port}` });

  const zoneFile = printZoneFile(Z, EVERY_TYPE_SOA, records);
  const created = await s.api('POST', '/domains', { name: Z, zone_file: zoneFile });
  expect(created.status, await created.clone().text()).toBe(201);
  expect((await s.api('POST', `/domains/${Z}/records`, { name: '@', record_type: 'ALIAS', content: 'lb.cdn.example', ttl: '600' })).status).toBe(200);
  const on = await s.api('PUT', `/domains/${Z}`, { dnssec_enabled: true });
  dnskey = ((await on.json()) as { dnskey_records: string[] }).dnskey_records[0]!.split(' ').at(-1)!;
  anchorFile = path.join(s.dir, 'anchor.conf');
  fs.writeFileSync(anchorFile, `trust-anchors {\n  "${Z}." static-key 257 3 13 "${dnskey}";\n};\n`);
  expect(await eventually(async () => (await s.dig('+short', Z, 'DNSKEY')).includes(dnskey.slice(0, 20)))).toBe(true);
  expect(await eventually(async () => (await s.dig('+short', Z, 'A')).includes('192.0.2.80'))).toBe(true);
}, 60_000);

afterAll(async () => {
  resolver?.close();
  await s?.stop();
});

/** Each RRset of the zone once, as a client asks for it; NS below the apex is a referral, its DS answers for it. */
const questions = [...new Set(records.filter((r) => r.record_type !== 'NS' || r.name === '@').map((r) => `${fqdn(r.name)} ${r.record_type}`))].map((k) => k.split(' ') as [string, string]);

describe(`delv validates an answer of each type in ${Z}`, () => {
  it.each(questions)('%s %s', async (name, type) => {
    const out = await delv(name, type);
    expect(out).toMatch(/; fully validated/);
    expect(out).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}\\s+\\d+\\s+IN\\s+${type}\\s`, 'm'));
  });

  it.each([
    ['A', /IN\s+A\s+192\.0\.2\.80/],
    ['AAAA', /IN\s+AAAA\s+2001:db8::80/],
  ])('and the apex %s the ALIAS makes from its target', async (type, line) => {
    const out = await delv(`${Z}.`, type);
    expect(out).toMatch(/; fully validated/);
    expect(out).toMatch(line);
    // The TTL is the target's (300), under the ALIAS record's own (600).
    expect(out).toMatch(new RegExp(`^${Z.replace(/\./g, '\\.')}\\.\\s+300\\s+IN\\s+${type}\\s`, 'm'));
  });

  it.each(['DNSKEY', 'CDS', 'CDNSKEY', 'SOA'])('and the apex %s', async (type) => {
    expect(await delv(`${Z}.`, type)).toMatch(/; fully validated/);
  });
});

describe('CDS and CDNSKEY (RFC 7344)', () => {
  it('name the key the API gives the parent', async () => {
    const zone = (await (await s.api('GET', `/domains/${Z}`)).json()) as { ds_records: { key_tag: number; digest: string }[] };
    const ds = zone.ds_records[0]!;
    expect((await s.dig('+short', Z, 'CDS')).trim().replace(/ (?=[0-9A-F]+$)/g, '')).toBe(`${ds.key_tag} 13 2 ${ds.digest}`);
    expect((await s.dig('+short', Z, 'CDNSKEY')).replace(/\s/g, '')).toBe(`257313${dnskey}`);
  });
});

describe('the signed AXFR', () => {
  it('holds the CDS, the CDNSKEY and the ALIAS addresses, and ldns-verify-zone accepts it', async () => {
    const zone = await s.dig(Z, 'AXFR', '+nocmd', '+nostats');
    expect(zone).toMatch(/\tCDS\t/);
    expect(zone).toMatch(/\tRRSIG\tCDNSKEY 13 2 /);
    expect(zone).toMatch(new RegExp(`^${Z.replace(/\./g, '\\.')}\\.\\s+300\\s+IN\\s+A\\s+192\\.0\\.2\\.81$`, 'm'));
    expect(zone).not.toMatch(/TYPE65401/);
    const file = path.join(s.dir, `${Z}.zone`);
    fs.writeFileSync(file, zone);
    const out = await tool('ldns-verify-zone', [file]);
    expect(out.out).toMatch(/Zone is verified and complete/);
    expect(out.code).toBe(0);
  });
});

describe('turning DNSSEC off', () => {
  it('publishes the delete form (RFC 8078 §4), unsigned, beside the ALIAS answers', async () => {
    expect((await s.api('PUT', `/domains/${Z}`, { dnssec_enabled: false })).status).toBe(200);
    expect(await eventually(async () => (await s.dig('+short', Z, 'CDS')).trim() === '0 0 0 00')).toBe(true);
    expect((await s.dig('+short', Z, 'CDNSKEY')).trim()).toBe('0 3 0 AA==');
    const raw = await s.dig('+dnssec', Z, 'CDS');
    expect(raw).not.toMatch(/RRSIG/);
    expect((await s.dig('+short', Z, 'DNSKEY')).trim()).toBe('');
    expect((await s.dig('+short', Z, 'A')).trim().split('\n').sort()).toEqual(CDN.A);
  });
});
