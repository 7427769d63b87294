/**
 * Response rate limiting against the built server (DNS_RATE_LIMIT=5, slip 2): names an asker
 * makes up share one bucket, as in BIND and Knot. Random names under a wildcard count under the
 * wildcard, random NXDOMAIN names under their zone (also when DNSSEC's compact denial sends them
 * as NOERROR), random names below a delegation under its cut, and NODATA by name whatever type is
 * asked. Each flood comes from one address, as a spoofed victim's would; what is counted is how
 * many whole answers got out, never how long anything took.
 */
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

const FLOOD = 200;
/** The rate is 5 a second with a burst of 5; the floods take a fraction of a second, so anything
 * near 10 whole answers is the limit working, and FLOOD whole answers is no limit at all. */
const AT_MOST = 15;

/** A query with EDNS (DO set when `dnssec`), as a resolver or an amplification attack sends it. */
function query(id: number, name: string, type: string, dnssec = false): Buffer {
  const opt = { type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssec ? packet.DNSSEC_OK : 0, options: [] };
  return Buffer.from(packet.encode({ id, type: 'query', questions: [{ name, type, class: 'IN' } as packet.Question], additionals: [opt as unknown as packet.Answer] }));
}

/** Sends every message from one socket and gathers what comes back within `waitMs`. */
async function flood(port: number, messages: Buffer[], waitMs = 1000): Promise<Buffer[]> {
  const sock = dgram.createSocket('udp4');
  const got: Buffer[] = [];
  sock.on('message', (m) => got.push(m));
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  for (const m of messages) sock.send(m, port, '127.0.0.1');
  await new Promise((r) => setTimeout(r, waitMs));
  sock.close();
  return got;
}

const random = () => randomBytes(6).toString('hex');
const tc = (m: Buffer) => (m[2]! & 0x02) !== 0;
const rcode = (m: Buffer) => m[3]! & 0x0f;
const ancount = (m: Buffer) => m.readUInt16BE(6);

/** The whole answers and the truncated ones among the responses to a flood. */
function tally(got: Buffer[]) {
  return { whole: got.filter((m) => !tc(m)), slipped: got.filter(tc) };
}

const TXT = Array.from({ length: 3 }, (_, i) => `"${String(i).repeat(150)}"`);

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ DNS_RATE_LIMIT: '5' });
  for (const name of ['wild.rrl.test', 'empty.rrl.test', 'signed.rrl.test']) expect((await s.api('POST', '/domains', { name })).status).toBe(201);
  const rrsets = [
    { name: '*', record_type: 'TXT', changetype: 'REPLACE', records: TXT },
    { name: 'host', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1'] },
    { name: 'child', record_type: 'NS', changetype: 'REPLACE', records: ['ns1.example.net.', 'ns2.example.net.'] },
  ];
  const res = await s.api('PATCH', '/domains/wild.rrl.test/rrsets', { rrsets });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await s.api('PUT', '/domains/signed.rrl.test', { dnssec_enabled: true })).status).toBe(200);
});
afterAll(() => s?.stop());

describe('response rate limiting counts made-up names together (DNS_RATE_LIMIT=5)', () => {
  it('random names under a wildcard TXT: the answers are counted under *.wild.rrl.test', async () => {
    // dig sees the wildcard answer under the asked name, so the flood below is of real answers.
    const one = await s.dig(`${random()}.wild.rrl.test`, 'TXT');
    expect(one).toMatch(/status: NOERROR/);
    expect(one.match(/\sTXT\s"/g)).toHaveLength(3);

    const got = await flood(
      s.dns,
      Array.from({ length: FLOOD }, (_, i) => query(i, `${random()}.wild.rrl.test`, 'TXT')),
    );
    const { whole, slipped } = tally(got);
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((m) => ancount(m) === 3)).toBe(true);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
    // Slip 2: about half of the limited answers go out truncated, with no records, for a retry over TCP.
    expect(slipped.length).toBeGreaterThan(FLOOD / 4);
    expect(slipped.every((m) => ancount(m) === 0)).toBe(true);
  });

  it('random names under a wildcard, asked for a type it does not have (NODATA): counted under the wildcard too', async () => {
    const { whole } = tally(
      await flood(
        s.dns,
        Array.from({ length: FLOOD }, (_, i) => query(i, `${random()}.wild.rrl.test`, 'MX')),
      ),
    );
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((m) => rcode(m) === 0 && ancount(m) === 0)).toBe(true);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
  });

  it('random names that do not exist: NXDOMAIN counted once per zone', async () => {
    expect(await s.dig(`${random()}.empty.rrl.test`, 'A')).toMatch(/status: NXDOMAIN/);
    const { whole, slipped } = tally(
      await flood(
        s.dns,
        Array.from({ length: FLOOD }, (_, i) => query(i, `${random()}.empty.rrl.test`, 'A')),
      ),
    );
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((m) => rcode(m) === 3)).toBe(true);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
    expect(slipped.length).toBeGreaterThan(FLOOD / 4);
  });

  it('random names that do not exist in a signed zone, asked with DO (compact denial answers NOERROR): still once per zone', async () => {
    const one = await s.dig('+dnssec', `${random()}.signed.rrl.test`, 'A');
    expect(one).toMatch(/status: NOERROR/);
    expect(one).toMatch(/\sNSEC\s/);
    const { whole } = tally(
      await flood(
        s.dns,
        Array.from({ length: FLOOD }, (_, i) => query(i, `${random()}.signed.rrl.test`, 'A', true)),
      ),
    );
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
  });

  it('random names below a delegation: the referral is counted under its zone cut', async () => {
    const one = await s.dig('+norec', `${random()}.child.wild.rrl.test`, 'A');
    expect(one).toMatch(/AUTHORITY: 2/);
    expect(one).toMatch(/child\.wild\.rrl\.test\.\s+\d+\s+IN\s+NS\s+ns1\.example\.net\./);
    const { whole } = tally(
      await flood(
        s.dns,
        Array.from({ length: FLOOD }, (_, i) => query(i, `${random()}.child.wild.rrl.test`, 'A')),
      ),
    );
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((m) => rcode(m) === 0 && ancount(m) === 0)).toBe(true);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
  });

  it('one name asked for every type it lacks: NODATA counted by name, not per type', async () => {
    const types = Array.from({ length: FLOOD }, (_, i) => `UNKNOWN_${1000 + i}`);
    const { whole } = tally(
      await flood(
        s.dns,
        types.map((t, i) => query(i, 'host.wild.rrl.test', t)),
      ),
    );
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.every((m) => ancount(m) === 0)).toBe(true);
    expect(whole.length).toBeLessThanOrEqual(AT_MOST);
  });

  it('a name that exists still has its own bucket: the floods above do not limit it', async () => {
    const { whole } = tally(await flood(s.dns, [query(1, 'host.wild.rrl.test', 'A')], 500));
    expect(whole).toHaveLength(1);
    expect(ancount(whole[0]!)).toBe(1);
  });
});
