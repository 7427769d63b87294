/**
 * The answer to a zone transfer query (AXFR, RFC 5936; IXFR, RFC 1995), once the query is
 * parsed: who may transfer (AXFR_ALLOW, a TSIG key of the zone's owner, or the zone's own
 * allow_transfer, signed with its key when it names one), the SOA alone for an
 * IXFR over UDP, else the zone's messages over TCP (axfr.ts, ixfr.ts).
 */
import { allowsAddress, allowsWholeZone } from '../../core/scope';
import { RCODE, T } from '../index/rrset';
import type { Zone } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';
import { SERVICE_KEY_USER, type DnsKey, type SignedRequest } from '../tsig/keyring';
import type { Query } from '../wire/query';
import { encodeResponse, errorResponse, responseLimit } from '../wire/response';
import { MAX_MESSAGE } from '../wire/writer';
import { axfrMessages } from './axfr';
import { ixfrMessages, type HistoryReader, type IxfrMode } from './ixfr';
import { keyHoldsZone, zoneAllowsTransfer } from './zone-transfers';

/** What a transfer asks of the server (part of the handler's options). */
export interface TransferOptions {
  /** Whether a client address may transfer zones (AXFR_ALLOW). */
  transferAllowed(address: string): boolean;
  /** The zones' history, for IXFR deltas (RFC 1995); without it IXFR gets the whole zone. */
  history?: HistoryReader;
  /** A zone transfer was answered (for the log). */
  onTransfer?(info: { zone: string; type: 'AXFR' | 'IXFR'; client: string; from?: number; to: number; mode: IxfrMode | 'full' }): void;
  onError?(err: unknown): void;
}

/**
 * Whether a verified key may transfer the zone from this address: a key of
 * the zone's user, or of a member of its team, whose scope admits the whole zone and the client's network.
 */
export function keyMayTransfer(key: DnsKey, zone: Zone, address: string): boolean {
  // The service's key (NOTIFY_TSIG) is the secondaries' own: every zone.
  if (key.userId === SERVICE_KEY_USER) return true;
  // A team's zone: any member (every role reads); a user's own zone: its user.
  return keyHoldsZone(key, zone.domain) && allowsWholeZone(key.scope, zone.name) && allowsAddress(key.scope, address);
}

/** The messages answering an AXFR or IXFR query; a promise for an IXFR over TCP, which reads the history. */
export function answerTransfer(index: ZoneIndex, options: TransferOptions, msg: Buffer, q: Query, tcp: boolean, address: string, signed: SignedRequest | null): Buffer[] | Promise<Buffer[]> {
  const zone = index.get(q.qname);
  if (!zone) return [errorResponse(msg, index.find(q.qname) ? RCODE.NOTAUTH : RCODE.REFUSED, q.questionEnd, q.edns !== null)];
  // AXFR_ALLOW, a TSIG key of the zone's owner from anywhere, or the zone's own networks (with its key, if it names one).
  const allowed = options.transferAllowed(address) || (signed !== null && keyMayTransfer(signed.key, zone, address)) || zoneAllowsTransfer(zone, address, signed);
  if (!allowed) return [errorResponse(msg, RCODE.REFUSED, q.questionEnd, q.edns !== null)];
  // A secondary not answered (never transferred, or past SOA expire) is not handed on either (RFC 1035 §3.3.13).
  if (zone.servedUntil <= Date.now()) return [errorResponse(msg, RCODE.SERVFAIL, q.questionEnd, q.edns !== null)];
  // RFC 1995 §2: an IXFR over UDP gets the SOA alone, telling the client to use TCP.
  if (!tcp) {
    const res = { rcode: RCODE.NOERROR, aa: true, zone, answer: [zone.soa], authority: [], additional: [], kind: 'answer' as const };
    return [encodeResponse(msg, q, res, responseLimit(q, false) - (signed?.reserve ?? 0))];
  }
  const to = zone.domain.serial_number;
  // A signed transfer leaves room for the TSIG RR after each message.
  const capacity = MAX_MESSAGE - (signed?.reserve ?? 0);
  if (q.qtype === T.IXFR) {
    return ixfrMessages(msg, q, zone, options.history, capacity)
      .catch((err: unknown) => {
        options.onError?.(err);
        return { mode: 'full' as const, messages: axfrMessages(msg, q, zone, capacity) };
      })
      .then(({ mode, messages }) => {
        options.onTransfer?.({ zone: zone.name, type: 'IXFR', client: address, from: q.ixfrSerial, to, mode });
        return messages;
      });
  }
  options.onTransfer?.({ zone: zone.name, type: 'AXFR', client: address, to, mode: 'full' });
  return axfrMessages(msg, q, zone, capacity);
}
