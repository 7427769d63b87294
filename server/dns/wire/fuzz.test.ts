/**
 * Bounded fuzzing of the running server: random and mutated packets over UDP and TCP.
 * Every reply must be a well-formed response, and the server must keep answering.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;

/** xorshift32: the same packets on every run, so a failure can be replayed. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

const seeds = (): Buffer[] => [
  packet.encode({ id: 1, type: 'query', flags: packet.RECURSION_DESIRED, questions: [{ name: 'www.example.com', type: 'A' }] }),
  packet.encode({
    id: 2,
    type: 'query',
    questions: [{ name: 'x.wild.example.com', type: 'TXT' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
  }),
  packet.encode({ id: 3, type: 'query', questions: [{ name: 'example.com', type: 'AXFR' }] }),
  packet.encode({ id: 4, type: 'query', questions: [{ name: 'alias.example.com', type: 'ANY' as 'A' }] }),
  // A compression pointer to itself in the question, and a label running off the end.
  Buffer.from([0, 5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]),
  Buffer.from([0, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 63, 0x41, 0x41]),
  // Every count at 0xffff.
  Buffer.from([0, 7, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0, 1]),
];

function mutate(rand: (n: number) => number, base: Buffer): Buffer {
  const kind = rand(5);
  if (kind === 0) return Buffer.from(Array.from({ length: rand(600) }, () => rand(256)));
  const msg = Buffer.from(base);
  if (kind === 1) for (let i = 0; i < 1 + rand(8); i++) msg[rand(msg.length)] = rand(256);
  if (kind === 2) for (let i = 0; i < 1 + rand(8); i++) msg[rand(msg.length)]! ^= 1 << rand(8);
  if (kind === 3) return msg.subarray(0, rand(msg.length + 1));
  if (kind === 4) return Buffer.concat([msg, Buffer.from(Array.from({ length: rand(64) }, () => rand(256)))]);
  return msg;
}

async function stillAnswers(): Promise<void> {
  expect((await s.dig('+short', 'www.example.com', 'A')).trim()).toBe('192.0.2.1');
  expect((await s.dig('+short', '+tcp', 'www.example.com', 'A')).trim()).toBe('192.0.2.1');
  expect(s.child.exitCode).toBeNull();
  // No packet reached an internal error (each would be logged and answered SERVFAIL).
  expect(s.logs.filter((l) => l.msg === 'dns error')).toEqual([]);
}

beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  for (const [name, record_type, content] of [
    ['www', 'A', '192.0.2.1'],
    ['alias', 'CNAME', 'www.example.com'],
    ['*.wild', 'TXT', 'w'],
  ]) {
    expect((await s.api('POST', '/domains/example.com/records', { name, record_type, content })).status).toBe(200);
  }
});

afterAll(async () => {
  await s?.stop();
});

describe('fuzzing', () => {
  it('survives 5,000 random and mutated UDP packets, and every reply is a well-formed response', async () => {
    const rand = prng(20240101);
    const base = seeds();
    const sock = dgram.createSocket('udp4');
    const bad: string[] = [];
    let replies = 0;
    sock.on('message', (m) => {
      replies++;
      try {
        const r = packet.decode(m);
        if (!(r.flags! & 0x8000) && r.type !== 'response') bad.push(m.toString('hex'));
      } catch {
        bad.push(m.toString('hex'));
      }
    });
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    for (let i = 0; i < 5000; i++) {
      sock.send(mutate(rand, base[rand(base.length)]!), s.dns, '127.0.0.1');
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 300));
    sock.close();
    expect(bad).toEqual([]);
    expect(replies).toBeGreaterThan(1000);
    await stillAnswers();
  });

  it('survives 200 TCP connections sending garbage, bad frames and half messages', async () => {
    const rand = prng(42);
    const base = seeds();
    const one = (i: number) =>
      new Promise<void>((resolve) => {
        const sock = net.connect(s.dns, '127.0.0.1');
        sock.on('error', () => resolve());
        sock.on('close', () => resolve());
        sock.on('data', () => {});
        sock.on('connect', () => {
          const parts: Buffer[] = [];
          for (let k = 0; k < 1 + rand(4); k++) {
            const msg = mutate(rand, base[rand(base.length)]!);
            const len = i % 4 === 0 ? rand(0x10000) : msg.length;
            parts.push(Buffer.from([len >> 8, len & 255]), msg);
          }
          if (i % 5 === 0) parts.push(Buffer.from(Array.from({ length: rand(3000) }, () => rand(256))));
          sock.end(Buffer.concat(parts));
          setTimeout(() => sock.destroy(), 300);
        });
      });
    for (let i = 0; i < 200; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => one(i + k)));
    await stillAnswers();
  });
});
