/**
 * Pulls a zone from a running primary by AXFR over TCP (RFC 5936): the migration path from
 * BIND, PowerDNS or Knot (`npm run cli -- zones transfer`). Every record is decoded from the
 * wire into the registry's canonical content; DNSSEC records (zonedeck signs by itself) and
 * types the registry does not carry are listed as ignored, never silently lost. For a secondary
 * zone (`secondary: true`) the zone is kept as the primary serves it: its DNSSEC records (served as
 * transferred, dnssec/passthrough.ts) and its apex NS set too.
 */
import net from 'node:net';
import packet from 'dns-packet';
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { ByteReader } from '../../core/rdata/bytes';
import { decodeName } from '../../core/rdata/wire-name';
import { RECORD_TYPE_BY_CODE } from '../../core/record-types';
import type { ZoneFileIgnored, ZoneFileRecord, ZoneFileSoa } from '../../core/zone-file';

export interface TransferredZone {
  soa: ZoneFileSoa;
  records: ZoneFileRecord[];
  ignored: ZoneFileIgnored[];
}

/** Signs the query and checks each answer, when the transfer needs TSIG (RFC 8945). */
export interface TransferSigner {
  sign(query: Buffer): Buffer;
  verify(message: Buffer, index: number): void;
  /** Called once the closing SOA came: throws when the answer did not end signed (RFC 8945 §5.3.1). */
  finish?(): void;
}

export interface TransferOptions {
  /** Keep everything a secondary serves: the DNSSEC records and the apex NS set (default: what an import keeps). */
  secondary?: boolean;
}

/** A transfer that failed: the primary refused, could not be reached, or sent something broken. */
export class TransferError extends Error {}

const T_SOA = 6;
const DNSSEC = new Map([
  [46, 'RRSIG'],
  [47, 'NSEC'],
  [48, 'DNSKEY'],
  [50, 'NSEC3'],
  [51, 'NSEC3PARAM'],
  [59, 'CDS'],
  [60, 'CDNSKEY'],
  [63, 'ZONEMD'],
]);
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

/** Reads the records of one AXFR message; returns whether the closing SOA came. */
function readMessage(msg: Buffer, zone: string, out: TransferredZone & { soaSeen: number; count: number }, secondary: boolean): boolean {
  if (msg.length < 12) throw new TransferError('the primary sent a truncated message');
  const rcode = msg[3]! & 0x0f;
  if (rcode !== 0) throw new TransferError(`the primary refused the transfer: ${RCODES[rcode] ?? `RCODE ${rcode}`}`);
  const qd = msg.readUInt16BE(4);
  const an = msg.readUInt16BE(6);
  const r = new ByteReader(msg, { message: msg, offset: 0 });
  r.pos = 12;
  for (let i = 0; i < qd; i++) {
    decodeName(r);
    r.pos += 4;
  }
  for (let i = 0; i < an; i++) {
    const owner = decodeName(r);
    const type = r.u16('type');
    r.u16('class');
    const ttl = r.u32('ttl');
    const len = r.u16('rdlength');
    const offset = r.pos;
    const rdata = r.bytes(len, 'rdata');
    // `line` numbers the records of the transfer, as a file's lines number its records.
    const line = ++out.count;
    if (type === T_SOA) {
      out.soaSeen++;
      if (out.soaSeen === 1) {
        // RFC 1035 §3.3.13: MNAME, RNAME (maybe compressed), then five 32-bit numbers.
        const sr = new ByteReader(msg, { message: msg, offset: 0 });
        sr.pos = offset;
        const mname = decodeName(sr);
        const rname = decodeName(sr);
        const [serial, refresh, retry, expire, minimum] = [0, 0, 0, 0, 0].map(() => sr.u32('SOA')) as [number, number, number, number, number];
        out.soa = { mname, rname, serial, refresh, retry, expire, minimum, ttl, line };
        continue;
      }
      return true;
    }
    let name: string;
    try {
      name = owner === zone ? APEX : normalizeRecordName(`${owner}.`, zone);
    } catch (e) {
      out.ignored.push({ line, name: owner, record_type: String(type), reason: `owner name: ${(e as Error).message}` });
      continue;
    }
    const def = RECORD_TYPE_BY_CODE.get(type);
    if (!def || (def.transferOnly && !secondary)) {
      out.ignored.push({ line, name, record_type: DNSSEC.get(type) ?? `TYPE${type}`, reason: DNSSEC.has(type) ? 'zonedeck signs zones itself' : 'not a record type zonedeck carries' });
      continue;
    }
    if (name === APEX && def.type === 'NS' && !secondary) {
      out.ignored.push({ line, name, record_type: 'NS', reason: 'the apex NS set is managed by zonedeck' });
      continue;
    }
    try {
      out.records.push({ name, record_type: def.type, ttl, content: def.fromWire(rdata, { message: msg, offset }), line });
    } catch (e) {
      out.ignored.push({ line, name, record_type: def.type, reason: (e as Error).message });
    }
  }
  return false;
}

/** Transfers `zone` from `host:port`; rejects with a clear message on any failure or after `timeoutMs`. */
export function transferZone(host: string, port: number, zone: string, signer?: TransferSigner, timeoutMs = 60_000, options: TransferOptions = {}): Promise<TransferredZone> {
  const query = packet.encode({ type: 'query', id: Math.floor(Math.random() * 65535), questions: [{ type: 'AXFR', name: zone, class: 'IN' }] });
  const wire = signer ? signer.sign(query) : query;
  return new Promise((resolve, reject) => {
    const out: TransferredZone & { soaSeen: number; count: number } = { soa: undefined as never, records: [], ignored: [], soaSeen: 0, count: 0 };
    const socket = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    let index = 0;
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(timeoutMs, () => fail(new TransferError(`no complete transfer from ${host}:${port} within ${timeoutMs / 1000} s`)));
    socket.on('error', (e) => fail(new TransferError(`cannot transfer from ${host}:${port}: ${e.message}`)));
    socket.on('connect', () => {
      const framed = Buffer.alloc(wire.length + 2);
      framed.writeUInt16BE(wire.length, 0);
      wire.copy(framed, 2);
      socket.write(framed);
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      try {
        while (buf.length >= 2 && buf.length >= buf.readUInt16BE(0) + 2) {
          const msg = buf.subarray(2, buf.readUInt16BE(0) + 2);
          buf = buf.subarray(msg.length + 2);
          signer?.verify(msg, index);
          index++;
          if (readMessage(msg, zone, out, options.secondary === true)) {
            signer?.finish?.();
            socket.end();
            const { soaSeen: _, count: __, ...done } = out;
            resolve(done);
            return;
          }
        }
      } catch (e) {
        fail(e instanceof TransferError ? e : new TransferError(`the transfer of ${zone} from ${host}:${port} failed: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
    socket.on('end', () => {
      if (out.soaSeen < 2) fail(new TransferError(`${host}:${port} closed the connection before the transfer of ${zone} was complete`));
    });
  });
}
