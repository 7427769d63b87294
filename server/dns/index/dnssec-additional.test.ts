/**
 * Against the built server with dig and kdig: in a signed zone,
 * additional-section addresses carry their RRSIGs when they fit (RFC 4035 §3.1.1), and are left
 * out with them, without TC, when they do not; glue below a cut stays unsigned; a query for type
 * RRSIG at a name that exists answers its signatures (as BIND does) instead of a NODATA whose NSEC
 * lists RRSIG.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
let s: RunningServer;
beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'signed.test', dnssec_enabled: true })).status).toBe(201);
  const rrsets = [
    { name: '@', record_type: 'MX', changetype: 'REPLACE', records: ['10 mail.signed.test.'] },
    { name: 'mail', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.25'] },
    { name: 'mail', record_type: 'AAAA', changetype: 'REPLACE', records: ['2001:db8::25'] },
    { name: 'sub', record_type: 'NS', changetype: 'REPLACE', records: ['ns.sub.signed.test.'] },
    { name: 'ns.sub', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.53'] },
    { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.80'] },
    { name: 'www', record_type: 'TXT', changetype: 'REPLACE', records: ['"hello"'] },
    // Many MX targets, each with addresses: more than a 1,232-octet answer holds with signatures.
    { name: 'big', record_type: 'MX', changetype: 'REPLACE', records: Array.from({ length: 12 }, (_, i) => `${i} m${i}.signed.test.`) },
    ...Array.from({ length: 12 }, (_, i) => ({ name: `m${i}`, record_type: 'AAAA', changetype: 'REPLACE', records: [`2001:db8::${i + 1}`] })),
  ];
  const res = await s.api('PATCH', '/domains/signed.test/rrsets', { rrsets });
  expect(res.status, await res.clone().text()).toBe(200);
});
afterAll(() => s?.stop());

const kdig = async (...args: string[]) => (await run('kdig', [`@127.0.0.1`, '-p', String(s.dns), '+time=2', '+retry=1', ...args])).stdout;

/** The lines of one section of dig's output. */
function section(out: string, name: string): string[] {
  const at = out.indexOf(`;; ${name} SECTION:`);
  if (at < 0) return [];
  const lines = out.slice(at).split('\n').slice(1);
  const end = lines.findIndex((l) => l.trim() === '');
  return lines.slice(0, end < 0 ? lines.length : end);
}

describe('a signed zone under DO', () => {
  it('an MX answer carries its targets’ addresses with their RRSIGs (dig)', async () => {
    const out = await s.dig('+dnssec', '+norec', '+bufsize=1232', 'signed.test', 'MX');
    const additional = section(out, 'ADDITIONAL');
    expect(additional.some((l) => /^mail\.signed\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.25/.test(l))).toBe(true);
    expect(additional.some((l) => /^mail\.signed\.test\.\s+\d+\s+IN\s+RRSIG\s+A 13 3 /.test(l))).toBe(true);
    expect(additional.some((l) => /^mail\.signed\.test\.\s+\d+\s+IN\s+RRSIG\s+AAAA 13 3 /.test(l))).toBe(true);
    expect(out).not.toMatch(/flags:[^;]*\btc\b/);
  });

  it('kdig sees the same signatures, and without DO there are none', async () => {
    const out = await kdig('+dnssec', 'signed.test', 'MX');
    expect(out).toMatch(/mail\.signed\.test\.\s+\d+\s+IN\s+RRSIG\s+A 13 3/);
    const plain = await s.dig('+norec', 'signed.test', 'MX');
    expect(section(plain, 'ADDITIONAL').some((l) => /mail\.signed\.test\..*\sA\s/.test(l))).toBe(true);
    expect(plain).not.toMatch(/RRSIG/);
  });

  it('when the addresses and their signatures do not all fit, pairs are left out together and TC stays clear', async () => {
    const out = await s.dig('+dnssec', '+norec', '+bufsize=1232', '+ignore', 'big.signed.test', 'MX');
    expect(out).not.toMatch(/flags:[^;]*\btc\b/);
    expect(section(out, 'ANSWER').filter((l) => /\sIN\s+MX\s/.test(l))).toHaveLength(12);
    const additional = section(out, 'ADDITIONAL').filter((l) => !l.startsWith(';'));
    const owners = (type: RegExp) =>
      additional
        .filter((l) => type.test(l))
        .map((l) => l.split(/\s+/)[0])
        .sort();
    const addresses = owners(/\sIN\s+AAAA\s/);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.length).toBeLessThan(12);
    // Every address kept has its signature, and no signature is kept without its address.
    expect(owners(/\sIN\s+RRSIG\s+AAAA\s/)).toEqual(addresses);
    // Over TCP all twelve fit.
    const tcp = section(await s.dig('+dnssec', '+norec', '+tcp', 'big.signed.test', 'MX'), 'ADDITIONAL');
    expect(tcp.filter((l) => /\sIN\s+RRSIG\s+AAAA\s/.test(l))).toHaveLength(12);
  });

  it('glue in a referral stays unsigned', async () => {
    const out = await s.dig('+dnssec', '+norec', 'x.sub.signed.test', 'A');
    const additional = section(out, 'ADDITIONAL');
    expect(additional.some((l) => /^ns\.sub\.signed\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.53/.test(l))).toBe(true);
    expect(additional.some((l) => /RRSIG/.test(l))).toBe(false);
  });

  it('a query for type RRSIG answers the signatures at the name, not a self-contradicting NODATA', async () => {
    const out = await s.dig('+dnssec', '+norec', 'www.signed.test', 'RRSIG');
    expect(out).toMatch(/status: NOERROR/);
    const answer = section(out, 'ANSWER');
    expect(answer.some((l) => /\sRRSIG\s+A 13 3 /.test(l))).toBe(true);
    expect(answer.some((l) => /\sRRSIG\s+TXT 13 3 /.test(l))).toBe(true);
    expect(section(out, 'AUTHORITY').some((l) => /\sNSEC\s/.test(l))).toBe(false);
    const k = await kdig('+dnssec', 'www.signed.test', 'RRSIG');
    expect(k).toMatch(/RRSIG\s+TXT 13 3/);
    // A name that does not exist is still denied.
    const nx = await s.dig('+dnssec', '+norec', 'nope.signed.test', 'RRSIG');
    expect(section(nx, 'ANSWER')).toEqual([]);
    expect(section(nx, 'AUTHORITY').some((l) => /\sNSEC\s.*(NXNAME|TYPE128)/.test(l))).toBe(true);
  });
});
