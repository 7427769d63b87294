/**
 * Against the built server (RFC 7766 §6.2.3): 1,024
 * connections from 64 loopback addresses (16 each), trickling one byte a second, no longer starve
 * the TCP port: a real `dig +tcp`, an AXFR and an `nsupdate -v` over TCP all succeed meanwhile, and
 * the server closes every trickler although each keeps sending (a message must arrive whole within
 * 5 s of its first byte; the 64 addresses are one /24 client, whose oldest idle connection makes
 * room for a newcomer).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientPrefix } from './client-prefix';
import { startServer, type RunningServer } from '../../testing/test-server';
import { waitUntil } from '../../testing/wait-until';

let s: RunningServer;
let key: string;
beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'slow.test' })).status).toBe(201);
  expect((await s.api('POST', '/domains/slow.test/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
  key = ((await (await s.api('POST', '/tsig-keys', { name: 'slow-key' })).json()) as { nsupdate: string }).nsupdate;
});
afterAll(() => s?.stop());

function nsupdate(lines: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('nsupdate', ['-v', '-y', key], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve(`${code} ${out}`));
    child.stdin.end(`server 127.0.0.1 ${s.dns}\nzone slow.test.\n${lines}\nsend\n`);
  });
}

describe('slow TCP clients', () => {
  it('counts clients by /24 and /56', () => {
    expect(clientPrefix('127.0.0.2')).toBe(clientPrefix('127.0.0.65'));
    expect(clientPrefix('::ffff:192.0.2.7')).toBe(clientPrefix('192.0.2.200'));
    expect(clientPrefix('2001:db8:0:1::1')).toBe(clientPrefix('2001:db8:0:ff::2'));
    expect(clientPrefix('2001:db8:0:100::1')).not.toBe(clientPrefix('2001:db8::1'));
  });

  it('1,024 trickling connections from 64 addresses: dig +tcp, AXFR and nsupdate over TCP succeed, the tricklers are closed', async () => {
    const tricklers: net.Socket[] = [];
    let closed = 0;
    const timers: NodeJS.Timeout[] = [];
    for (let a = 2; a < 66; a++) {
      for (let k = 0; k < 16; k++) {
        const sock = net.connect({ host: '127.0.0.1', port: s.dns, localAddress: `127.0.0.${a}` });
        sock.on('error', () => {});
        sock.on('close', () => closed++);
        // Half a length prefix, then one more byte a second: a message that never ends.
        sock.on('connect', () => {
          sock.write(Buffer.from([0x00]));
          const t = setInterval(() => sock.writable && sock.write(Buffer.from([0x41])), 1000);
          timers.push(t);
        });
        tricklers.push(sock);
      }
    }
    try {
      await waitUntil('every trickler has connected (or been turned away)', () => tricklers.every((t) => !t.connecting));
      // A byte or so from each first, so that the port is busy with them when the real clients come.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await s.dig('+tcp', '+short', 'www.slow.test', 'A')).toBe('192.0.2.1\n');
      const axfr = await s.dig('+tcp', 'slow.test', 'AXFR');
      expect(axfr).toMatch(/www\.slow\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.1/);
      expect(axfr).toMatch(/XFR size: 5 records/);
      expect(await nsupdate('update add slow.slow.test. 60 TXT "over tcp"')).toMatch(/^0 /);
      expect(await s.dig('+tcp', '+short', 'slow.slow.test', 'TXT')).toBe('"over tcp"\n');
      // The server closes every trickler, though each still sends a byte a second: none holds its
      // connection by trickling (how soon is the server's deadline, not a figure asserted here).
      await waitUntil('the server closes every trickler', () => closed === 1024);
      expect(tricklers.filter((t) => !t.destroyed && !t.readableEnded).length).toBe(0);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const t of tricklers) t.destroy();
    }
  }, 60_000);
});
