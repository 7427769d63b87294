/**
 * Against the built server with dig and kdig (RFC 8906 style
 * probes): every error answer to an EDNS query carries an OPT (RFC 6891 §6.1.1) — FORMERR for a
 * query of type OPT, NOTIMP for a meta type and for an unknown opcode — and a NOTIMP clears RD.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
let s: RunningServer;
beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'edns.test' })).status).toBe(201);
  expect((await s.api('POST', '/domains', { name: 'signed-edns.test', dnssec_enabled: true })).status).toBe(201);
});
afterAll(() => s?.stop());

const kdig = async (...args: string[]) => (await run('kdig', [`@127.0.0.1`, '-p', String(s.dns), '+time=2', '+retry=1', ...args])).stdout;

/** One raw UDP exchange. */
function exchange(msg: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    const timer = setTimeout(() => (sock.close(), reject(new Error('no answer'))), 3000);
    sock.on('message', (m) => (clearTimeout(timer), sock.close(), resolve(m)));
    sock.send(msg, s.dns, '127.0.0.1');
  });
}

describe('error answers to EDNS queries', () => {
  it.each([
    ['a query of type OPT (41)', ['edns.test', 'TYPE41'], 'FORMERR'],
    ['a meta type (TYPE129)', ['edns.test', 'TYPE129'], 'NOTIMP'],
    ['NXNAME (128, RFC 9824 §3.5)', ['edns.test', 'TYPE128'], 'FORMERR'],
    ['an unknown opcode (15)', ['+opcode=15', 'edns.test', 'SOA'], 'NOTIMP'],
  ])('%s: dig sees the RCODE and an OPT', async (_what, args, rcode) => {
    const out = await s.dig('+edns=0', '+norec', ...args);
    expect(out).toMatch(new RegExp(`status: ${rcode}`));
    expect(out).toMatch(/OPT PSEUDOSECTION:\n; EDNS: version: 0/);
    // Without EDNS in the query, none in the answer.
    expect(await s.dig('+noedns', '+norec', ...args)).not.toMatch(/OPT PSEUDOSECTION/);
  });

  it('kdig sees the same: FORMERR with an EDNS section for type OPT', async () => {
    const out = await kdig('+edns=0', 'edns.test', 'TYPE41');
    expect(out).toMatch(/status: FORMERR/);
    expect(out).toMatch(/EDNS PSEUDOSECTION/);
  });

  it('an empty question with EDNS is FORMERR with an OPT, and a NOTIMP clears RD', async () => {
    const noQuestion = Buffer.from(
      packet.encode({ id: 7, type: 'query', flags: packet.RECURSION_DESIRED, questions: [], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer] }),
    );
    const a = packet.decode(await exchange(noQuestion)) as unknown as { rcode: string; additionals?: Array<{ type: string }> };
    expect(a.rcode).toBe('FORMERR');
    expect(a.additionals?.map((r) => r.type)).toEqual(['OPT']);
    const unknownOpcode = Buffer.from(noQuestion);
    unknownOpcode.writeUInt16BE(1, 4);
    const withQuestion = Buffer.from(
      packet.encode({
        id: 8,
        type: 'query',
        flags: packet.RECURSION_DESIRED,
        questions: [{ name: 'edns.test', type: 'SOA', class: 'IN' }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer],
      }),
    );
    withQuestion[2] = (withQuestion[2]! & 0x87) | (15 << 3);
    const raw = await exchange(withQuestion);
    expect(raw[3]! & 15).toBe(4); // NOTIMP
    expect(raw[2]! & 0x01).toBe(0); // RD cleared
    expect(raw.readUInt16BE(10)).toBe(1); // the OPT
  });
});

/**
 * The probes of ISC's EDNS compliance tester (ednscomp's genreport, RFC 8906 §8), as dig sends
 * them: what each must answer for a zone to be marked "ok" there.
 */
describe('RFC 8906 compliance probes (genreport)', () => {
  const soa = /IN\s+SOA\s+ns1\.zonedeck\.test\./;
  it.each([
    ['dns: plain DNS', ['+noedns', 'soa', 'edns.test'], 'NOERROR', false],
    ['edns: EDNS 0', ['+edns=0', '+nocookie', 'soa', 'edns.test'], 'NOERROR', true],
    ['ednsopt: an unknown option is ignored, not echoed', ['+edns=0', '+nocookie', '+ednsopt=100', 'soa', 'edns.test'], 'NOERROR', true],
    ['do: the DO bit is echoed', ['+edns=0', '+nocookie', '+dnssec', 'soa', 'edns.test'], 'NOERROR', true],
    ['ednsflags: an unknown EDNS flag is not echoed', ['+edns=0', '+nocookie', '+ednsflags=0x80', 'soa', 'edns.test'], 'NOERROR', true],
    ['optlist: NSID, client subnet, expire and a cookie together', ['+edns=0', '+nsid', '+subnet=0.0.0.0/0', '+expire', '+cookie', 'soa', 'edns.test'], 'NOERROR', true],
    ['ednstcp: EDNS over TCP', ['+edns=0', '+nocookie', '+tcp', 'soa', 'edns.test'], 'NOERROR', true],
    ['zflag: the header Z bit is cleared', ['+noedns', '+zflag', 'soa', 'edns.test'], 'NOERROR', false],
  ])('%s', async (_what, args, status, opt) => {
    const out = await s.dig('+norec', ...args);
    expect(out).toMatch(new RegExp(`status: ${status}`));
    expect(out).toMatch(/flags: qr aa;/);
    expect(out).toMatch(soa);
    if (opt) expect(out).toMatch(/; EDNS: version: 0, flags:( do)?; udp: 1232/);
    else expect(out).not.toMatch(/OPT PSEUDOSECTION/);
    expect(out).not.toMatch(/MBZ|OPT=100|FORMERR|WARNING/);
    if (args.includes('+dnssec')) expect(out).toMatch(/flags: do;/);
    if (args.includes('+ednsflags=0x80')) expect(out).toMatch(/; EDNS: version: 0, flags:; udp/);
    if (args.includes('+cookie')) expect(out).toMatch(/; COOKIE: [0-9a-f]{48} \(good\)/);
  });

  it.each([
    ['edns1: an unknown EDNS version is BADVERS, with our version 0', ['+edns=1', '+noednsneg', '+nocookie', 'soa', 'edns.test']],
    ['edns1opt: the same with an unknown option, not echoed', ['+edns=1', '+noednsneg', '+nocookie', '+ednsopt=100', 'soa', 'edns.test']],
  ])('%s', async (_what, args) => {
    const out = await s.dig('+norec', ...args);
    expect(out).toMatch(/status: BADVERS/);
    expect(out).toMatch(/ANSWER: 0,/);
    expect(out).toMatch(/; EDNS: version: 0,/);
    expect(out).not.toMatch(/OPT=100/);
  });

  it('edns@512: a signed DNSKEY answer at a 512-octet buffer fits or is truncated, and TCP brings it whole', async () => {
    const udp = await s.dig('+norec', '+edns=0', '+nocookie', '+dnssec', '+bufsize=512', '+ignore', 'dnskey', 'signed-edns.test');
    expect(udp).toMatch(/status: NOERROR/);
    const size = Number(/MSG SIZE {2}rcvd: (\d+)/.exec(udp)?.[1]);
    expect(size).toBeLessThanOrEqual(512);
    if (!/flags: qr aa tc;/.test(udp)) expect(udp).toMatch(/IN\s+DNSKEY\s+257 3 13/);
    const tcp = await s.dig('+norec', '+edns=0', '+nocookie', '+dnssec', '+bufsize=512', '+tcp', 'dnskey', 'signed-edns.test');
    expect(tcp).toMatch(/IN\s+DNSKEY\s+257 3 13/);
    expect(tcp).toMatch(/IN\s+RRSIG\s+DNSKEY 13/);
  });
});
