/**
 * Against the built server: RFC 2136 updates take from a
 * token bucket per TSIG key and one per zone (RATE_LIMIT_UPDATE); beyond, REFUSED and nothing
 * written. Another key on another zone is not slowed by the first one's flood.
 */
import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { append, tsigRR, variables } from '../tsig/tsig-record';
import { startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
const keys: Record<string, { name: string; secret: string }> = {};

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_UPDATE: '5,10' });
  for (const zone of ['flood.test', 'calm.test']) {
    expect((await s.api('POST', '/domains', { name: zone })).status).toBe(201);
    keys[zone] = (await (await s.api('POST', '/tsig-keys', { name: `${zone.split('.')[0]}-key`, scope: { zones: [zone] } })).json()) as { name: string; secret: string };
  }
});
afterAll(() => s?.stop());

let id = 1;
function signedUpdate(zone: string, text: string): Buffer {
  const key = keys[zone]!;
  const mid = id++ & 0xffff;
  const msg = Buffer.from(
    packet.encode({
      id: mid,
      type: 'query',
      opcode: 'UPDATE',
      flags: 5 << 11,
      questions: [{ name: zone, type: 'SOA', class: 'IN' }],
      authorities: [{ name: `r.${zone}`, type: 'TXT', class: 'IN', ttl: 60, data: text }],
    } as unknown as packet.Packet),
  );
  const f = { name: key.name, algorithm: 'hmac-sha256' as const, timeSigned: Math.floor(Date.now() / 1000), fudge: 300, error: 0, other: Buffer.alloc(0) };
  const mac = createHmac('sha256', Buffer.from(key.secret, 'base64'))
    .update(Buffer.concat([msg, variables(f)]))
    .digest();
  return append(msg, tsigRR({ ...f, mac, originalId: mid }));
}

/**
 * Sends every message over one UDP socket at once; the RCODEs of the answers, and the seconds from
 * the first send to the last answer (the buckets refill meanwhile). Waits up to 30 s for them all.
 */
function flood(msgs: Buffer[]): Promise<{ rcodes: number[]; seconds: number }> {
  return new Promise((resolve) => {
    const sock = dgram.createSocket('udp4');
    const rcodes: number[] = [];
    const start = performance.now();
    const done = () => (sock.close(), resolve({ rcodes, seconds: (performance.now() - start) / 1000 }));
    const timer = setTimeout(done, 30_000);
    sock.on('message', (m) => {
      rcodes.push(m[3]! & 15);
      if (rcodes.length === msgs.length) (clearTimeout(timer), done());
    });
    for (const m of msgs) sock.send(m, s.dns, '127.0.0.1');
  });
}

const history = async (zone: string) => ((await (await s.api('GET', `/domains/${zone}/changes?source=rfc2136&per_page=500`)).json()) as unknown[]).length;

describe('RFC 2136 rate limit', () => {
  it('a flood of 40 signed updates from one key: at most the burst and the refill are applied, the rest REFUSED', async () => {
    const { rcodes, seconds } = await flood(Array.from({ length: 40 }, (_, i) => signedUpdate('flood.test', `u${i}`)));
    const applied = rcodes.filter((r) => r === 0).length;
    const refused = rcodes.filter((r) => r === 5).length;
    expect(applied + refused).toBe(40);
    expect(applied).toBeGreaterThanOrEqual(10);
    // RATE_LIMIT_UPDATE=5,10: the burst of 10, and 5 more a second while the flood was answered
    // (the bound follows the time it took, which a loaded machine stretches).
    expect(applied).toBeLessThanOrEqual(10 + Math.ceil(5 * seconds));
    expect(await history('flood.test')).toBe(applied);
    // Another key on another zone has its own buckets.
    const calm = await flood([signedUpdate('calm.test', 'quiet')]);
    expect(calm.rcodes).toEqual([0]);
    expect(await history('calm.test')).toBe(1);
  });
});
