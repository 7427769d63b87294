/**
 * The running server, checked with the tools a DNS operator would use: `delv` (BIND's
 * validator) with the zone's DNSKEY from the API as its trust anchor, and `ldns-verify-zone`
 * on the zone as `dig AXFR` receives it. Turning DNSSEC off and on again makes a new key,
 * and validation follows it. One process for the file, stopped at the end.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
let s: RunningServer;
let dnskey: string;

/** Runs a tool that must be installed; says how to install it otherwise (never a silent skip). */
async function tool(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { maxBuffer: 1 << 24 });
    return { stdout, stderr, code: 0 };
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error(`${cmd} is not installed: apt-get install bind9-dnsutils ldnsutils`);
    return { stdout: err.stdout ?? '', stderr: err.stderr ?? '', code: Number(err.code ?? 1) };
  }
}

/** A delv trust anchor file for example.com holding `key` (the DNSKEY's public key field). */
function anchor(key: string, name = 'anchor.conf'): string {
  const file = path.join(s.dir, name);
  fs.writeFileSync(file, `trust-anchors {\n  "example.com." static-key 257 3 13 "${key}";\n};\n`);
  return file;
}

/** delv's whole output (it prints the verdict as a comment, sometimes on stderr). */
async function delv(anchorFile: string, name: string, type = 'A'): Promise<string> {
  const { stdout, stderr } = await tool('delv', ['@127.0.0.1', '-p', String(s.dns), '-a', anchorFile, '+root=example.com', name, type]);
  return `${stdout}\n${stderr}`;
}

const publicKeyOf = (record: string) => record.split(' ').at(-1)!;

async function setDnssec(on: boolean): Promise<string | null> {
  const res = await s.api('PUT', '/domains/example.com', { dnssec_enabled: on });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { dnskey_records: string[] };
  const key = body.dnskey_records[0] ? publicKeyOf(body.dnskey_records[0]) : null;
  // The DNS server follows within milliseconds; wait until it serves the new state.
  const served = await eventually(async () => {
    const out = await s.dig('+short', 'example.com', 'DNSKEY');
    return key ? out.replace(/\s/g, '').includes(key) : out.trim() === '';
  });
  expect(served).toBe(true);
  return key;
}

beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  for (const [name, record_type, content] of [
    ['www', 'A', '192.0.2.1'],
    ['www', 'AAAA', '2001:db8::1'],
    ['@', 'MX', '10 mail.example.com'],
    ['mail', 'A', '192.0.2.25'],
    ['*.wild', 'TXT', 'from the wildcard'],
    ['a.b.c', 'TXT', 'deep'],
    ['alias', 'CNAME', 'www.example.com'],
    ['sub', 'NS', 'ns1.sub.example.com'],
    ['ns1.sub', 'A', '192.0.2.53'],
  ]) {
    expect((await s.api('POST', '/domains/example.com/records', { name, record_type, content })).status).toBe(200);
  }
  dnskey = (await setDnssec(true))!;
});

afterAll(async () => {
  await s?.stop();
});

describe("delv with the zone's DNSKEY as trust anchor", () => {
  it('fully validates a positive answer, a CNAME and the apex', async () => {
    const a = anchor(dnskey);
    const www = await delv(a, 'www.example.com');
    expect(www).toMatch(/; fully validated/);
    expect(www).toMatch(/www\.example\.com\.\s+\d+\s+IN\s+A\s+192\.0\.2\.1/);
    expect(await delv(a, 'alias.example.com')).toMatch(/; fully validated[\s\S]*192\.0\.2\.1/);
    expect(await delv(a, 'example.com', 'MX')).toMatch(/; fully validated[\s\S]*10 mail\.example\.com\./);
  });

  it('fully validates a wildcard answer', async () => {
    const out = await delv(anchor(dnskey), 'anything.wild.example.com', 'TXT');
    expect(out).toMatch(/; fully validated/);
    expect(out).toMatch(/anything\.wild\.example\.com\.\s+\d+\s+IN\s+TXT\s+"from the wildcard"/);
  });

  it('validates the denial of a nonexistent name (compact denial: NXNAME)', async () => {
    expect(await delv(anchor(dnskey), 'nope.example.com')).toMatch(/; negative response, fully validated/);
    // What a resolver receives: NOERROR with one NSEC that marks the name as nonexistent.
    const raw = await s.dig('+dnssec', 'nope.example.com', 'A');
    expect(raw).toMatch(/status: NOERROR/);
    expect(raw).toMatch(/nope\.example\.com\.\s+\d+\s+IN\s+NSEC\s+\\000\.nope\.example\.com\. RRSIG NSEC TYPE128/);
  });

  it('validates NODATA, at a name with data, at an empty non-terminal, and DS at a delegation', async () => {
    const a = anchor(dnskey);
    expect(await delv(a, 'www.example.com', 'MX')).toMatch(/; negative response, fully validated/);
    expect(await delv(a, 'b.c.example.com', 'TXT')).toMatch(/; negative response, fully validated/);
    expect(await delv(a, 'anything.wild.example.com', 'MX')).toMatch(/; negative response, fully validated/);
    expect(await delv(a, 'sub.example.com', 'DS')).toMatch(/; negative response, fully validated/);
  });

  it('fails with a tampered trust anchor', async () => {
    const bytes = Buffer.from(dnskey, 'base64');
    bytes[10]! ^= 0x01;
    const out = await delv(anchor(bytes.toString('base64'), 'tampered.conf'), 'www.example.com');
    expect(out).not.toMatch(/fully validated/);
    expect(out).toMatch(/resolution failed/);
  });
});

describe('the signed zone by AXFR', () => {
  it('is accepted by ldns-verify-zone', async () => {
    const zone = await s.dig('example.com', 'AXFR', '+nocmd', '+nostats');
    expect(zone).toMatch(/\tNSEC\t/);
    expect(zone).toMatch(/\tRRSIG\tDNSKEY 13 2 /);
    const file = path.join(s.dir, 'example.com.zone');
    fs.writeFileSync(file, zone);
    const out = await tool('ldns-verify-zone', [file]);
    expect(`${out.stdout}${out.stderr}`).toMatch(/Zone is verified and complete/);
    expect(out.code).toBe(0);
  });
});

describe('turning DNSSEC off and on again', () => {
  it('stops signing, then signs with a new key that validation follows', async () => {
    const old = dnskey;
    expect(await setDnssec(false)).toBeNull();
    const unsigned = await s.dig('+dnssec', 'www.example.com', 'A');
    expect(unsigned).toMatch(/192\.0\.2\.1/);
    expect(unsigned).not.toMatch(/RRSIG/);
    expect(await s.dig('+dnssec', 'nope.example.com', 'A')).toMatch(/status: NXDOMAIN/);

    const fresh = (await setDnssec(true))!;
    expect(fresh).not.toBe(old);
    expect(await delv(anchor(fresh, 'new.conf'), 'www.example.com')).toMatch(/; fully validated/);
    const withOld = await delv(anchor(old, 'old.conf'), 'www.example.com');
    expect(withOld).not.toMatch(/fully validated/);
    dnskey = fresh;
  });
});
