/**
 * New ALIAS addresses reach secondaries, end to end in the built server:
 * the DNS thread resolves the target and sees its addresses change; it writes nothing itself,
 * but tells the main thread, whose change sets give the zone a new serial (source `alias`, in
 * the history) and NOTIFY the secondary.
 */
import dgram from 'node:dgram';
import path from 'node:path';
import Database from 'better-sqlite3';
import packet from 'dns-packet';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer | undefined;
const sockets: dgram.Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await s?.stop();
});

async function bound(onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo, socket: dgram.Socket) => void): Promise<number> {
  const port = await freePort();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => onMessage(msg, rinfo, socket));
  await new Promise<void>((r) => socket.bind(port, '127.0.0.1', () => r()));
  sockets.push(socket);
  return port;
}

describe('a changed ALIAS target', () => {
  it('gets the zone a new serial written by the main thread, recorded in the history, and a NOTIFY', async () => {
    let address = '192.0.2.1';
    const resolver = await bound((msg, rinfo, socket) => {
      const q = packet.decode(msg);
      const { name, type } = q.questions![0]!;
      const answers = name === 'lb.cdn.example' && type === 'A' ? [{ name, type: 'A' as const, ttl: 1, data: address }] : [];
      socket.send(packet.encode({ id: q.id, type: 'response', flags: packet.RECURSION_AVAILABLE, questions: q.questions, answers }), rinfo.port, rinfo.address);
    });
    const notifies: number[] = [];
    const secondary = await bound((msg, rinfo, socket) => {
      const q = packet.decode(msg);
      // Opcode 4, NOTIFY (RFC 1996), in bits 11-14 of the flags.
      if (((q.flags ?? 0) >> 11) % 16 !== 4) return;
      const soa = q.answers?.find((a) => a.type === 'SOA') as { data: { serial: number } } | undefined;
      notifies.push(soa?.data.serial ?? -1);
      socket.send(packet.encode({ id: q.id, type: 'response', flags: (4 << 11) | packet.AUTHORITATIVE_ANSWER, questions: q.questions }), rinfo.port, rinfo.address);
    });
    s = await startServer({ RESOLVER: `127.0.0.1:${resolver}`, SECONDARIES: `127.0.0.1:${secondary}` });
    expect((await s.api('POST', '/domains', { name: 'cdn.test' })).status).toBe(201);
    expect((await s.api('POST', '/domains/cdn.test/records', { name: '@', record_type: 'ALIAS', content: 'lb.cdn.example' })).status).toBe(200);
    expect(await eventually(async () => (await s!.dig('+short', 'cdn.test', 'A')).trim() === '192.0.2.1', 100, 100)).toBe(true);
    const serial = async () => Number((await s!.dig('+short', 'cdn.test', 'SOA')).trim().split(/\s+/)[2]);
    const before = await serial();
    // The zone last changed an hour ago, so the fifteen-minute spacing of ALIAS bumps does not hold this one back.
    const db = new Database(path.join(s.dir, 'zonedeck.db'));
    db.prepare('UPDATE domains SET updated_at = ? WHERE name = ?').run(new Date(Date.now() - 3_600_000).toISOString(), 'cdn.test');
    db.close();

    address = '192.0.2.2';
    // The target is asked again at 3/4 of its (30 s floor) TTL.
    expect(await eventually(async () => (await s!.dig('+short', 'cdn.test', 'A')).trim() === '192.0.2.2', 600, 100)).toBe(true);
    expect(await eventually(async () => (await serial()) > before, 100, 100)).toBe(true);
    const after = await serial();
    const history = (await (await s.api('GET', '/domains/cdn.test/changes')).json()) as Array<{ source: string; serial: number }>;
    expect(history[0]).toMatchObject({ source: 'alias' });
    expect(await eventually(async () => notifies.includes(after), 50, 100)).toBe(true);
  }, 90_000);
});
