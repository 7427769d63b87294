/**
 * The ALIAS target lookup against a tiny recursive resolver of our own (UDP and TCP on one
 * port, as the delegation test does it): addresses at the end of a CNAME chain with the chain's
 * least TTL, NXDOMAIN and NODATA as no addresses for the SOA's negative TTL, SERVFAIL and
 * silence as failures, and a truncated UDP answer asked again over TCP.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupAddresses } from './alias-lookup';
import { freePort } from '../../testing/test-server';

let port: number;
let udp: dgram.Socket;
let tcp: net.Server;
const tcpAsked: string[] = [];

const SOA = { name: 'example.net', type: 'SOA', ttl: 900, data: { mname: 'ns.example.net', rname: 'h.example.net', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 120 } } as const;

/** What the fake resolver answers, by "name TYPE". */
function reply(q: packet.Packet, overTcp: boolean): Buffer | null {
  const question = q.questions![0]!;
  const key = `${question.name.toLowerCase()} ${question.type}`;
  const base = { id: q.id, type: 'response' as const, questions: q.questions };
  const flags = packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE;
  switch (key) {
    case 'cdn.example.net A':
      return packet.encode({
        ...base,
        flags,
        answers: [
          { name: 'cdn.example.net', type: 'CNAME', ttl: 40, data: 'edge.cdn.example' },
          { name: 'edge.cdn.example', type: 'A', ttl: 300, data: '198.51.100.2' },
          { name: 'edge.cdn.example', type: 'A', ttl: 300, data: '198.51.100.1' },
        ],
      });
    case 'v4only.example.net AAAA':
      return packet.encode({ ...base, flags, authorities: [SOA] });
    case 'gone.example.net A':
      return packet.encode({ ...base, flags: flags | 3, authorities: [SOA] });
    case 'broken.example.net A':
      return packet.encode({ ...base, flags: flags | 2 });
    case 'silent.example.net A':
      return null;
    case 'many.example.net A': {
      if (!overTcp) return packet.encode({ ...base, flags: flags | packet.TRUNCATED_RESPONSE });
      tcpAsked.push(key);
      const answers = Array.from({ length: 60 }, (_, i) => ({ name: 'many.example.net', type: 'A' as const, ttl: 60, data: `203.0.113.${i + 1}` }));
      return packet.encode({ ...base, flags, answers });
    }
    default:
      return packet.encode({ ...base, flags: flags | 3 });
  }
}

beforeAll(async () => {
  port = await freePort();
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    const out = reply(packet.decode(msg), false);
    if (out) udp.send(out, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => udp.bind(port, '127.0.0.1', () => r()));
  tcp = net.createServer((socket) => {
    socket.once('data', (data) => {
      const out = reply(packet.decode(data.subarray(2)), true);
      if (out) socket.end(Buffer.concat([Buffer.from([out.length >> 8, out.length & 0xff]), out]));
    });
  });
  await new Promise<void>((r) => tcp.listen(port, '127.0.0.1', () => r()));
});

afterAll(async () => {
  udp?.close();
  await new Promise((r) => tcp?.close(r));
});

const resolver = () => ({ host: '127.0.0.1', port });

describe('looking an ALIAS target up', () => {
  it('takes the addresses at the end of a CNAME chain, with the chain’s least TTL', async () => {
    expect(await lookupAddresses(resolver(), 'cdn.example.net', 'A')).toEqual({ kind: 'answer', addresses: ['198.51.100.1', '198.51.100.2'], ttl: 40 });
  });

  it('reads NODATA and NXDOMAIN as no addresses, for the negative TTL of the SOA (RFC 2308 §5)', async () => {
    expect(await lookupAddresses(resolver(), 'v4only.example.net', 'AAAA')).toEqual({ kind: 'answer', addresses: [], ttl: 120 });
    expect(await lookupAddresses(resolver(), 'gone.example.net', 'A')).toEqual({ kind: 'answer', addresses: [], ttl: 120 });
  });

  it('fails on SERVFAIL and on silence', async () => {
    expect(await lookupAddresses(resolver(), 'broken.example.net', 'A')).toEqual({ kind: 'failed', reason: 'the resolver answered SERVFAIL' });
    expect(await lookupAddresses(resolver(), 'silent.example.net', 'A', 300)).toEqual({ kind: 'failed', reason: 'timed out' });
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    const r = await lookupAddresses(resolver(), 'many.example.net', 'A');
    expect(r.kind === 'answer' && r.addresses.length).toBe(60);
    expect(tcpAsked).toEqual(['many.example.net A']);
  });
});
