/**
 * Issue 25, finding 7 (in part), against the built server with dig and kdig (RFC 8906 style
 * probes): every error answer to an EDNS query carries an OPT (RFC 6891 §6.1.1) — FORMERR for a
 * query of type OPT, NOTIMP for a meta type and for an unknown opcode — and a NOTIMP clears RD.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './test-server';

const run = promisify(execFile);
let s: RunningServer;
beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'edns.test' })).status).toBe(201);
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
    const noQuestion = Buffer.from(packet.encode({ id: 7, type: 'query', flags: packet.RECURSION_DESIRED, questions: [], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer] }));
    const a = packet.decode(await exchange(noQuestion)) as unknown as { rcode: string; additionals?: Array<{ type: string }> };
    expect(a.rcode).toBe('FORMERR');
    expect(a.additionals?.map((r) => r.type)).toEqual(['OPT']);
    const unknownOpcode = Buffer.from(noQuestion);
    unknownOpcode.writeUInt16BE(1, 4);
    const withQuestion = Buffer.from(packet.encode({ id: 8, type: 'query', flags: packet.RECURSION_DESIRED, questions: [{ name: 'edns.test', type: 'SOA', class: 'IN' }], additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer] }));
    withQuestion[2] = (withQuestion[2]! & 0x87) | (15 << 3);
    const raw = await exchange(withQuestion);
    expect(raw[3]! & 15).toBe(4); // NOTIMP
    expect(raw[2]! & 0x01).toBe(0); // RD cleared
    expect(raw.readUInt16BE(10)).toBe(1); // the OPT
  });
});
