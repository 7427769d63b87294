/**
 * One question to the recursive resolver of `RESOLVER` for an ALIAS target's addresses: UDP with
 * EDNS(0) and RD, and TCP again when the answer comes back truncated (RFC 7766 §5). The answer
 * section is taken as the resolver gives it, so a target that is itself a CNAME chain (as CDN
 * names are) yields the addresses at its end.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import type { Secondary } from '../transfer/notify';

export type Lookup =
  /** Addresses (possibly none: NODATA or NXDOMAIN) and how long they may be kept, in seconds. */
  | { kind: 'answer'; addresses: string[]; ttl: number }
  /** No usable answer: timeout, SERVFAIL, REFUSED, a broken message. */
  | { kind: 'failed'; reason: string };

/** TTL of a negative answer without an SOA to take it from. */
const NEGATIVE_DEFAULT_TTL = 60;

type Decoded = ReturnType<typeof packet.decode> & { rcode?: string; flag_tc?: boolean };

function query(name: string, type: 'A' | 'AAAA', id: number): Buffer {
  return packet.encode({
    id,
    type: 'query',
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer],
  });
}

function viaUdp(resolver: Secondary, msg: Buffer, id: number, timeoutMs: number): Promise<Decoded | string> {
  const socket = dgram.createSocket(net.isIPv6(resolver.host) ? 'udp6' : 'udp4');
  return new Promise<Decoded | string>((resolve) => {
    const timer = setTimeout(() => resolve('timed out'), timeoutMs);
    socket.on('error', (e) => resolve(e.message));
    socket.on('message', (reply) => {
      let d: Decoded;
      try {
        d = packet.decode(reply) as Decoded;
      } catch {
        return;
      }
      if (d.id !== id || d.type !== 'response') return;
      clearTimeout(timer);
      resolve(d);
    });
    socket.send(msg, resolver.port, resolver.host);
  }).finally(() => socket.close());
}

function viaTcp(resolver: Secondary, msg: Buffer, id: number, timeoutMs: number): Promise<Decoded | string> {
  return new Promise<Decoded | string>((resolve) => {
    const socket = net.connect(resolver.port, resolver.host);
    let buf = Buffer.alloc(0);
    const done = (r: Decoded | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done('timed out over TCP'), timeoutMs);
    socket.on('error', (e) => done(e.message));
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from([msg.length >> 8, msg.length & 0xff]), msg])));
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      try {
        const d = packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))) as Decoded;
        done(d.id === id ? d : 'a TCP answer with another id');
      } catch {
        done('a malformed TCP answer');
      }
    });
  });
}

/** The addresses of `name` of `type` through the resolver, with the TTL to keep them for. */
export async function lookupAddresses(resolver: Secondary, name: string, type: 'A' | 'AAAA', timeoutMs = 2000): Promise<Lookup> {
  const id = Math.floor(Math.random() * 0x10000);
  const msg = query(name, type, id);
  let reply = await viaUdp(resolver, msg, id, timeoutMs);
  if (typeof reply !== 'string' && reply.flag_tc) reply = await viaTcp(resolver, msg, id, timeoutMs);
  if (typeof reply === 'string') return { kind: 'failed', reason: reply };
  const rcode = reply.rcode ?? 'NOERROR';
  if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') return { kind: 'failed', reason: `the resolver answered ${rcode}` };
  const answers = (reply.answers ?? []).filter((a) => a.type !== 'RRSIG');
  const addresses = answers.filter((a) => a.type === type).map((a) => String((a as { data: string }).data));
  if (addresses.length > 0) {
    // The chain's shortest TTL: a CNAME in front of the addresses may change sooner than they do.
    const ttl = Math.min(...answers.map((a) => (a as { ttl?: number }).ttl ?? 0));
    return { kind: 'answer', addresses: [...new Set(addresses)].sort(), ttl };
  }
  // RFC 2308 §5: a negative answer is kept for the lesser of the SOA's TTL and its MINIMUM field.
  const soa = (reply.authorities ?? []).find((a) => a.type === 'SOA') as { ttl?: number; data?: { minimum?: number } } | undefined;
  const ttl = soa ? Math.min(soa.ttl ?? NEGATIVE_DEFAULT_TTL, soa.data?.minimum ?? NEGATIVE_DEFAULT_TTL) : NEGATIVE_DEFAULT_TTL;
  return { kind: 'answer', addresses: [], ttl };
}
