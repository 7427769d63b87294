/**
 * Against the built server: a captured signed UPDATE
 * sent again is refused and applied once; a message signed 11 hours off with Fudge 65535 gets
 * BADTIME (the server's 300 s bounds the window); a key made through the API works with dig at
 * once, with no retry.
 */
import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { append, findTsig, tsigRR, variables } from './tsig-record';
import { startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
let key: { name: string; secret: string; nsupdate: string };

beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'replay.test' })).status).toBe(201);
  key = (await (await s.api('POST', '/tsig-keys', { name: 'replay-key' })).json()) as typeof key;
});
afterAll(() => s?.stop());

/** A signed UPDATE adding one TXT record, signed at `at` (seconds) with this Fudge. */
function signedUpdate(text: string, at: number, fudge = 300, id = 4242): Buffer {
  const msg = Buffer.from(
    packet.encode({
      id,
      type: 'query',
      opcode: 'UPDATE',
      flags: 5 << 11,
      questions: [{ name: 'replay.test', type: 'SOA', class: 'IN' }],
      authorities: [{ name: 'r.replay.test', type: 'TXT', class: 'IN', ttl: 60, data: text }],
    } as unknown as packet.Packet),
  );
  const f = { name: key.name, algorithm: 'hmac-sha256' as const, timeSigned: at, fudge, error: 0, other: Buffer.alloc(0) };
  const mac = createHmac('sha256', Buffer.from(key.secret, 'base64'))
    .update(Buffer.concat([msg, variables(f)]))
    .digest();
  return append(msg, tsigRR({ ...f, mac, originalId: id }));
}

/** Sends one message over UDP; the answer's RCODE and its TSIG error (from the raw TSIG RR). */
function send(msg: Buffer): Promise<{ rcode: string; tsigError: number | null }> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    const timer = setTimeout(() => (sock.close(), reject(new Error('no answer'))), 3000);
    sock.on('message', (m) => {
      clearTimeout(timer);
      sock.close();
      const rcodes = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];
      const tsig = findTsig(m);
      resolve({ rcode: rcodes[m[3]! & 15] ?? String(m[3]! & 15), tsigError: tsig && tsig !== 'malformed' ? tsig.error : null });
    });
    sock.send(msg, s.dns, '127.0.0.1');
  });
}

const changes = async () => ((await (await s.api('GET', '/domains/replay.test/changes?source=rfc2136')).json()) as unknown[]).length;
const now = () => Math.floor(Date.now() / 1000);

describe('TSIG time and replays', () => {
  it('a key made through the API is known to dig at once', async () => {
    const fresh = (await (await s.api('POST', '/tsig-keys', { name: 'fresh-key' })).json()) as { nsupdate: string };
    const out = await s.dig('-y', fresh.nsupdate, 'replay.test', 'SOA');
    expect(out).toMatch(/status: NOERROR/);
    expect(out).toMatch(/fresh-key\.\s+0\s+ANY\s+TSIG\s+hmac-sha256\.\s+\d+\s+300\s+32\s+\S+\s+\d+\s+NOERROR/);
  });

  it('a captured signed UPDATE sent again is refused (BADTIME, signed) and applied once', async () => {
    const msg = signedUpdate('first', now());
    expect(await send(msg)).toEqual({ rcode: 'NOERROR', tsigError: 0 });
    expect(await changes()).toBe(1);
    expect(await send(msg)).toEqual({ rcode: 'NOTAUTH', tsigError: 18 });
    expect(await changes()).toBe(1);
    // A new message from the same key goes through.
    expect(await send(signedUpdate('second', now(), 300, 4243))).toEqual({ rcode: 'NOERROR', tsigError: 0 });
    expect(await changes()).toBe(2);
  });

  it('a message signed 11 hours off with Fudge 65535 is BADTIME: the server’s 300 s bound the window', async () => {
    const before = await changes();
    expect(await send(signedUpdate('late', now() - 11 * 3600, 65535, 4244))).toEqual({ rcode: 'NOTAUTH', tsigError: 18 });
    expect(await send(signedUpdate('early', now() + 400, 65535, 4245))).toEqual({ rcode: 'NOTAUTH', tsigError: 18 });
    expect(await send(signedUpdate('in time', now() - 200, 65535, 4246))).toEqual({ rcode: 'NOERROR', tsigError: 0 });
    expect(await changes()).toBe(before + 1);
  });
});
