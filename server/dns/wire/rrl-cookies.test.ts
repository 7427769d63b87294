/**
 * Against the built server: DNS cookies (RFC 7873, with RFC 9018 server
 * cookies) answered and verified, seen by dig and kdig; response rate limiting (DNS_RATE_LIMIT)
 * cuts a spoofed-source flood's answered bytes to under a tenth, slips truncated answers so a real
 * resolver retries over TCP, does not slow a client asking many different names, exempts a client
 * that returns a good cookie, and is counted in /metrics.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);

/** A query with EDNS, and optionally a COOKIE option (client cookie, then the server's). */
function query(id: number, name: string, type: string, cookie?: Buffer): Buffer {
  const opt = { type: 'OPT', name: '.', udpPayloadSize: 1232, options: cookie ? [{ code: 10, data: cookie }] : [] };
  return Buffer.from(packet.encode({ id, type: 'query', questions: [{ name, type, class: 'IN' } as packet.Question], additionals: [opt as unknown as packet.Answer] }));
}

/** Sends every message from one socket (one source address: the victim's) and gathers what comes back within `waitMs`. */
async function flood(port: number, messages: Buffer[], waitMs = 800): Promise<Buffer[]> {
  const sock = dgram.createSocket('udp4');
  const got: Buffer[] = [];
  sock.on('message', (m) => got.push(m));
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  for (const m of messages) sock.send(m, port, '127.0.0.1');
  await new Promise((r) => setTimeout(r, waitMs));
  sock.close();
  return got;
}

const tc = (m: Buffer) => (m[2]! & 0x02) !== 0;
const bytes = (ms: Buffer[]) => ms.reduce((n, m) => n + m.length, 0);
/** The server cookie at the end of an answer to a query with a cookie (our OPT's last option). */
const serverCookie = (m: Buffer) => m.subarray(m.length - 16);

const BIG_TXT = Array.from({ length: 5 }, (_, i) => `"${String(i).repeat(200)}"`);

async function zone(s: RunningServer): Promise<void> {
  expect((await s.api('POST', '/domains', { name: 'rrl.test' })).status).toBe(201);
  const rrsets = [
    { name: 'big', record_type: 'TXT', changetype: 'REPLACE', records: BIG_TXT },
    ...Array.from({ length: 60 }, (_, i) => ({ name: `h${i}`, record_type: 'A', changetype: 'REPLACE', records: [`192.0.2.${i + 1}`] })),
  ];
  const res = await s.api('PATCH', '/domains/rrl.test/rrsets', { rrsets });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('DNS cookies (always on)', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer();
    await zone(s);
  });
  afterAll(() => s?.stop());

  it('dig and kdig get a server cookie for their client cookie, and the one they return is good', async () => {
    const out = await s.dig('+cookie', 'h1.rrl.test', 'A');
    const m = /; COOKIE: ([0-9a-f]{16})([0-9a-f]{32}) \(good\)/.exec(out);
    expect(m, out).not.toBeNull();
    expect(m![2]!.slice(0, 8)).toBe('01000000'); // RFC 9018: version 1, reserved
    // dig sends the server cookie back; the answer comes with a fresh one.
    const again = await s.dig(`+cookie=${m![1]}${m![2]}`, 'h2.rrl.test', 'A');
    expect(again).toMatch(/; COOKIE: [0-9a-f]{48} \(good\)/);
    expect(again).toMatch(/192\.0\.2\.3/);
    const k = (await run('kdig', ['@127.0.0.1', '-p', String(s.dns), '+cookie', 'h3.rrl.test', 'A'])).stdout;
    expect(k).toMatch(/COOKIE: [0-9a-f]{48}/i);
    // A client without a cookie gets none.
    expect(await s.dig('+nocookie', 'h1.rrl.test', 'A')).not.toMatch(/COOKIE/);
    await expect.poll(async () => /zonedeck_dns_cookies_total\{result="good"\} [1-9]/.test(await (await fetch(`${s.http}/metrics`)).text()), { timeout: 5000 }).toBe(true);
  });

  it('a cookie of a wrong length is FORMERR with an OPT; a query with no question but a cookie gets a cookie (RFC 7873 §5.4)', async () => {
    const [bad] = await flood(s.dns, [query(1, 'h1.rrl.test', 'A', Buffer.alloc(12, 1))], 500);
    expect(bad![3]! & 15).toBe(1);
    expect(bad!.readUInt16BE(10)).toBe(1);
    const bare = Buffer.from(
      packet.encode({
        id: 2,
        type: 'query',
        questions: [],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, options: [{ code: 10, data: Buffer.alloc(8, 7) }] } as unknown as packet.Answer],
      }),
    );
    const [ok] = await flood(s.dns, [bare], 500);
    expect(ok![3]! & 15).toBe(0);
    expect(ok!.readUInt16BE(4)).toBe(0);
    expect(ok!.subarray(ok!.length - 24, ok!.length - 16)).toEqual(Buffer.alloc(8, 7));
  });
});

describe('response rate limiting (DNS_RATE_LIMIT=5, slip 2)', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ DNS_RATE_LIMIT: '5' });
    await zone(s);
  });
  afterAll(() => s?.stop());

  it('a spoofed flood of one big answer: under a tenth of the bytes, every other limited answer truncated', async () => {
    const msgs = Array.from({ length: 300 }, (_, i) => query(i, 'big.rrl.test', 'TXT'));
    const limited = await flood(s.dns, msgs);
    // Without the limit every query would have had the whole answer.
    const answer = limited.find((m) => !tc(m))!;
    expect(answer.length).toBeGreaterThan(1000);
    const unlimited = msgs.length * answer.length;
    const full = limited.filter((m) => !tc(m));
    const slipped = limited.filter(tc);
    expect(full.length).toBeGreaterThan(0);
    expect(full.length).toBeLessThanOrEqual(10);
    // Slip 2: about half of the limited ones go out truncated (no records), the rest are dropped.
    expect(slipped.length).toBeGreaterThan(100);
    expect(slipped.length).toBeLessThan(200);
    expect(slipped.every((m) => m.readUInt16BE(6) === 0 && m.length < 60)).toBe(true);
    expect(bytes(limited) * 10).toBeLessThan(unlimited);
    const metrics = await (await fetch(`${s.http}/metrics`)).text();
    await expect.poll(async () => /zonedeck_dns_rate_limited_total\{action="dropped"\} [1-9]/.test(await (await fetch(`${s.http}/metrics`)).text()), { timeout: 5000 }).toBe(true);
    expect(metrics).toMatch(/zonedeck_dns_rate_limited_total/);
  });

  it('a resolver told TC=1 gets the answer over TCP, which is never limited', async () => {
    await flood(
      s.dns,
      Array.from({ length: 50 }, (_, i) => query(i, 'big.rrl.test', 'TXT')),
      100,
    );
    const out = await s.dig('+tcp', 'big.rrl.test', 'TXT');
    expect(out).toMatch(/status: NOERROR/);
    expect(out.match(/\sTXT\s"/g)).toHaveLength(5);
  });

  it('a client asking many different names is not slowed', async () => {
    const msgs = Array.from({ length: 60 }, (_, i) => query(1000 + i, `h${i}.rrl.test`, 'A'));
    const got = await flood(s.dns, msgs);
    expect(got.filter((m) => !tc(m))).toHaveLength(60);
  });

  it('a client that returns a good server cookie is exempt; a made-up one is not', async () => {
    const client = Buffer.from('0123456789abcdef', 'hex');
    const [first] = await flood(s.dns, [query(1, 'h7.rrl.test', 'A', client)], 300);
    const good = Buffer.concat([client, serverCookie(first!)]);
    const withGood = await flood(
      s.dns,
      Array.from({ length: 100 }, (_, i) => query(i, 'big.rrl.test', 'TXT', good)),
    );
    expect(withGood.filter((m) => !tc(m))).toHaveLength(100);
    const forged = Buffer.concat([client, Buffer.from('01000000', 'hex'), serverCookie(first!).subarray(4, 8), Buffer.alloc(8, 9)]);
    const withForged = await flood(
      s.dns,
      Array.from({ length: 100 }, (_, i) => query(i, 'big.rrl.test', 'TXT', forged)),
    );
    expect(withForged.filter((m) => !tc(m)).length).toBeLessThanOrEqual(10);
  });

  it('the limit lifts: a second later the name answers again', async () => {
    await flood(
      s.dns,
      Array.from({ length: 50 }, (_, i) => query(i, 'h9.rrl.test', 'A')),
      100,
    );
    await new Promise((r) => setTimeout(r, 1200));
    const out = await s.dig('h9.rrl.test', 'A');
    expect(out).toMatch(/192\.0\.2\.10/);
    expect(out).not.toMatch(/flags:[^;]*\btc\b/);
  });
});

describe('DNS_RATE_LIMIT is checked at start', () => {
  it('a value that is not a rate stops the start with a message naming it', async () => {
    await expect(startServer({ DNS_RATE_LIMIT: 'fast' })).rejects.toThrow(/DNS_RATE_LIMIT/);
  });
});
