/**
 * One query to a name server over TCP (RFC 7766 framing), its answer read message by message
 * until the caller says it is complete: the zone transfers zonedeck makes (the CLI's AXFR import,
 * a secondary's IXFR/AXFR), bounded by the whole time and by the silence allowed.
 */
import net from 'node:net';
import type { HostPort } from '../../core/host-port';
import type { PulledSoa, PullLimits } from '../../services/secondary/pull-types';
import { ByteReader } from '../../core/rdata/bytes';
import { decodeName } from '../../core/rdata/wire-name';

/** Signs the query and checks each answer, when the transfer needs TSIG (RFC 8945). */
export interface TransferSigner {
  sign(query: Buffer): Buffer;
  verify(message: Buffer, index: number): void;
  /** Called once the closing SOA came: throws when the answer did not end signed (RFC 8945 §5.3.1). */
  finish?(): void;
}

/** A transfer that failed: the primary refused, could not be reached, or sent something broken. */
export class TransferError extends Error {}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

/** A record of the answer as read off the wire. */
export interface WireRecord {
  owner: string;
  type: number;
  ttl: number;
  rdata: Uint8Array;
  offset: number;
  message: Buffer;
}

/** The records of the answer section of one message; throws TransferError on an error RCODE or a broken message. */
export function answers(msg: Buffer, what: string): WireRecord[] {
  if (msg.length < 12) throw new TransferError(`the primary sent a truncated message`);
  const rcode = msg[3]! & 0x0f;
  if (rcode !== 0) throw new TransferError(`the primary refused the ${what}: ${RCODES[rcode] ?? `RCODE ${rcode}`}`);
  const r = new ByteReader(msg, { message: msg, offset: 0 });
  r.pos = 12;
  for (let i = msg.readUInt16BE(4); i > 0; i--) {
    decodeName(r);
    r.pos += 4;
  }
  const out: WireRecord[] = [];
  for (let i = msg.readUInt16BE(6); i > 0; i--) {
    const owner = decodeName(r);
    const type = r.u16('type');
    r.u16('class');
    const ttl = r.u32('ttl');
    const len = r.u16('rdlength');
    const offset = r.pos;
    out.push({ owner, type, ttl, rdata: r.bytes(len, 'rdata'), offset, message: msg });
  }
  return out;
}

/** The SOA a record holds (RFC 1035 §3.3.13: MNAME, RNAME, maybe compressed, then five 32-bit numbers), with its TTL. */
export function soaOf(rec: WireRecord): PulledSoa {
  const r = new ByteReader(rec.message, { message: rec.message, offset: 0 });
  r.pos = rec.offset;
  const mname = decodeName(r);
  const rname = decodeName(r);
  const [serial, refresh, retry, expire, minimum] = [0, 0, 0, 0, 0].map(() => r.u32('SOA')) as [number, number, number, number, number];
  return { mname, rname, serial, refresh, retry, expire, minimum, ttl: rec.ttl };
}

/** `host:port`, `[v6]:port`. */
export const at = (p: HostPort) => (p.host.includes(':') ? `[${p.host}]:${p.port}` : `${p.host}:${p.port}`);

/**
 * Sends one query over TCP and reads answer messages, handing each to `take` until it says the
 * answer is complete. Bounded by the records read, the whole time and the silence allowed.
 */
export function tcpExchange(primary: HostPort, wire: Buffer, limits: Pick<PullLimits, 'timeoutMs' | 'idleMs'>, take: (msg: Buffer, index: number) => boolean): Promise<Buffer[]> {
  const timeoutMs = limits.timeoutMs ?? 120_000;
  const idleMs = limits.idleMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: primary.host, port: primary.port });
    const messages: Buffer[] = [];
    let buf: Buffer = Buffer.alloc(0);
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(whole);
      socket.destroy();
      reject(err);
    };
    const whole = setTimeout(() => fail(new TransferError(`no complete answer from ${at(primary)} within ${timeoutMs / 1000} s`)), timeoutMs);
    socket.setTimeout(idleMs, () => fail(new TransferError(`${at(primary)} stopped sending for ${idleMs / 1000} s in the middle of the answer`)));
    socket.on('error', (e) => fail(new TransferError(`cannot transfer from ${at(primary)}: ${e.message}`)));
    socket.on('connect', () => {
      const framed = Buffer.alloc(wire.length + 2);
      framed.writeUInt16BE(wire.length, 0);
      wire.copy(framed, 2);
      socket.write(framed);
    });
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      try {
        while (!settled && buf.length >= 2 && buf.length >= buf.readUInt16BE(0) + 2) {
          const msg = Buffer.from(buf.subarray(2, buf.readUInt16BE(0) + 2));
          buf = buf.subarray(msg.length + 2);
          messages.push(msg);
          if (take(msg, messages.length - 1)) {
            settled = true;
            clearTimeout(whole);
            socket.end();
            resolve(messages);
          }
        }
      } catch (e) {
        fail(e instanceof TransferError ? e : new TransferError(`the answer of ${at(primary)} is broken: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
    socket.on('end', () => fail(new TransferError(`${at(primary)} closed the connection before the answer was complete`)));
  });
}
