/**
 * Pulls a zone from a running primary by AXFR over TCP (RFC 5936): the migration path from
 * BIND, PowerDNS or Knot (`npm run cli -- zones transfer`). Every record is decoded from the
 * wire into the registry's canonical content; DNSSEC records (zonedeck signs by itself) and
 * types the registry does not carry are listed as ignored, never silently lost. For a secondary
 * zone (`secondary: true`) the zone is kept as the primary serves it: its DNSSEC records (served as
 * transferred, dnssec/passthrough.ts) and its apex NS set too.
 */
import packet from 'dns-packet';
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { RECORD_TYPE_BY_CODE } from '../../core/record-types';
import type { ZoneFileIgnored, ZoneFileRecord, ZoneFileSoa } from '../../core/zone-file';
import { answers, soaOf, tcpExchange, TransferError, type TransferSigner } from './tcp-exchange';

export { TransferError, type TransferSigner };

export interface TransferredZone {
  soa: ZoneFileSoa;
  records: ZoneFileRecord[];
  ignored: ZoneFileIgnored[];
}

export interface TransferOptions {
  /** Keep everything a secondary serves: the DNSSEC records and the apex NS set (default: what an import keeps). */
  secondary?: boolean;
}

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

/** Reads the records of one AXFR message; returns whether the closing SOA came. */
function readMessage(msg: Buffer, zone: string, out: TransferredZone & { soaSeen: number; count: number }, secondary: boolean): boolean {
  for (const rec of answers(msg, 'transfer')) {
    const { owner, type, ttl, rdata, offset } = rec;
    // `line` numbers the records of the transfer, as a file's lines number its records.
    const line = ++out.count;
    if (type === T_SOA) {
      out.soaSeen++;
      if (out.soaSeen === 1) {
        out.soa = { ...soaOf(rec), line };
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
export async function transferZone(host: string, port: number, zone: string, signer?: TransferSigner, timeoutMs = 60_000, options: TransferOptions = {}): Promise<TransferredZone> {
  const query = packet.encode({ type: 'query', id: Math.floor(Math.random() * 65535), questions: [{ type: 'AXFR', name: zone, class: 'IN' }] });
  const wire = signer ? signer.sign(query) : query;
  const out: TransferredZone & { soaSeen: number; count: number } = { soa: undefined as never, records: [], ignored: [], soaSeen: 0, count: 0 };
  try {
    await tcpExchange({ host, port }, wire, { timeoutMs, idleMs: timeoutMs }, (msg, index) => {
      signer?.verify(msg, index);
      const done = readMessage(msg, zone, out, options.secondary === true);
      if (done) signer?.finish?.();
      return done;
    });
  } catch (e) {
    throw e instanceof TransferError ? e : new TransferError(`the transfer of ${zone} from ${host}:${port} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { soaSeen: _, count: __, ...done } = out;
  return done;
}
