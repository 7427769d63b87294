/**
 * A NOTIFY (RFC 1996) for a secondary zone: taken when it comes from one of the zone's primaries
 * (by address; signed with the zone's key when it has one), and answered at once; the check it
 * asks for runs in the main thread (`notified`). Any other NOTIFY is refused and counted, never
 * acted on: a stranger cannot make zonedeck hammer a primary.
 */
import ipaddr from 'ipaddr.js';
import { parseHostPort } from '../../core/host-port';
import { ByteReader } from '../../core/rdata/bytes';
import { decodeName } from '../../core/rdata/wire-name';
import { DEFENCE, dnsDefences } from '../../counters';
import { RCODE, T } from '../index/rrset';
import type { ZoneIndex } from '../index/zone-index';
import type { SignedRequest } from '../tsig/keyring';
import { errorResponse } from '../wire/response';

export const OPCODE_NOTIFY = 4;

/** Whether `address` (as the socket reports it) is the address of one of `primaries` (`host:port`). */
export function fromPrimary(address: string, primaries: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  let from = ipaddr.parse(address);
  if (from.kind() === 'ipv6' && (from as ipaddr.IPv6).isIPv4MappedAddress()) from = (from as ipaddr.IPv6).toIPv4Address();
  return primaries.some((p) => {
    const { host } = parseHostPort(p);
    return ipaddr.isValid(host) && ipaddr.parse(host).toString() === from.toString();
  });
}

/** The answer to a NOTIFY message; `notified` hears of each one taken. */
export function answerNotify(index: ZoneIndex, msg: Buffer, address: string, signed: SignedRequest | null, notified?: (zoneId: number) => void): Buffer[] {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return [errorResponse(msg, RCODE.FORMERR)];
  let zoneName: string;
  let questionEnd: number;
  let qtype: number;
  try {
    const r = new ByteReader(msg, { message: msg, offset: 0 });
    r.pos = 12;
    zoneName = decodeName(r).toLowerCase();
    qtype = r.u16('type');
    r.u16('class');
    questionEnd = r.pos;
  } catch {
    return [errorResponse(msg, RCODE.FORMERR)];
  }
  const zone = index.get(zoneName);
  const refuse = (rcode: number) => {
    dnsDefences[DEFENCE.NOTIFY_IGNORED]! += 1;
    return [errorResponse(msg, rcode, questionEnd)];
  };
  // RFC 1996 §3.7: a NOTIFY names the zone's SOA; for a zone not served as a secondary here, NOTAUTH.
  if (qtype !== T.SOA) return refuse(RCODE.FORMERR);
  if (!zone || zone.domain.kind !== 'secondary') return refuse(RCODE.NOTAUTH);
  if (!fromPrimary(address, zone.domain.primaries ?? [])) return refuse(RCODE.REFUSED);
  const key = zone.domain.tsig_key;
  if (key && signed?.key.name !== key) return refuse(RCODE.NOTAUTH);
  dnsDefences[DEFENCE.NOTIFY_TAKEN]! += 1;
  notified?.(zone.id);
  return [errorResponse(msg, RCODE.NOERROR, questionEnd)];
}
