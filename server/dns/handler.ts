/**
 * From query bytes to response bytes, for both transports: the cache first, then parse,
 * resolve, sign (DO bit and a signed zone) and encode. Zone transfers (RFC 5936) go to the
 * AXFR module over TCP only.
 * Nothing a client sends escapes as an exception: an internal failure is SERVFAIL.
 */
import { AnswerCache, questionKey } from './answer-cache';
import { axfrMessages } from './axfr';
import { ixfrMessages, type HistoryReader, type IxfrMode } from './ixfr';
import { signResolution } from './dnssec/online';
import { parseQuery, type Query } from './query';
import { resolve } from './resolve';
import { encodeResponse, errorResponse, responseLimit } from './response';
import { CLASS_IN, RCODE, T } from './rrset';
import type { ZoneIndex } from './zone-index';

type Fast = ReturnType<typeof questionKey>;

export interface HandlerOptions {
  /** Whether a client address may transfer zones (AXFR_ALLOW). */
  transferAllowed(address: string): boolean;
  /** The zones' history, for IXFR deltas (RFC 1995); without it IXFR gets the whole zone. */
  history?: HistoryReader;
  /** A zone transfer was answered (for the log). */
  onTransfer?(info: { zone: string; type: 'AXFR' | 'IXFR'; client: string; from?: number; to: number; mode: IxfrMode | 'full' }): void;
  onError?(err: unknown): void;
}

export interface Handler {
  /** One UDP response, or null to stay silent. */
  udp(msg: Buffer, address: string): Buffer | null;
  /** The TCP response messages (several for a zone transfer), or none; a promise for an IXFR, which reads the history. */
  tcp(msg: Buffer, address: string): Buffer[] | Promise<Buffer[]>;
  readonly cache: AnswerCache;
}

export function createHandler(index: ZoneIndex, options: HandlerOptions): Handler {
  const cache = new AnswerCache(index);

  function answer(msg: Buffer, tcp: boolean, address: string, fast: Fast): Buffer[] | Promise<Buffer[]> {
    const parsed = parseQuery(msg);
    if (parsed.kind === 'drop') return [];
    if (parsed.kind === 'error') return [errorResponse(msg, parsed.rcode, parsed.questionEnd)];
    const q = parsed.query;
    const failure = check(q, tcp);
    if (failure !== null) return [errorResponse(msg, failure, q.questionEnd, q.edns !== null)];
    if (q.qtype === T.AXFR || q.qtype === T.IXFR) return transfer(msg, q, tcp, address);
    let res = resolve(index, { qname: q.qname, qtype: q.qtype, tcp });
    // RFC 4035 §3.1: RRSIGs and NSECs only for a client that set DO.
    const signer = q.edns?.dnssecOk ? res.zone?.signer : null;
    if (signer) res = signResolution(res, q.qtype, signer);
    const out = encodeResponse(msg, q, res, responseLimit(q, tcp));
    // A signed answer is cached until its signatures are due for renewal.
    if (fast) cache.put(fast.key, out, res.zone, signer ? signer.window().renewAt : 0);
    return [out];
  }

  /** The RCODE for a query that cannot be answered normally, or null. */
  function check(q: Query, tcp: boolean): number | null {
    // RFC 6891 §6.1.3: only version 0 is known.
    if (q.edns && q.edns.version !== 0) return RCODE.BADVERS;
    if (q.qclass !== CLASS_IN) return RCODE.REFUSED;
    // RFC 5936 §4.2: no zone transfer over UDP.
    if (!tcp && q.qtype === T.AXFR) return RCODE.NOTIMP;
    return null;
  }

  function transfer(msg: Buffer, q: Query, tcp: boolean, address: string): Buffer[] | Promise<Buffer[]> {
    const zone = index.get(q.qname);
    if (!zone) return [errorResponse(msg, index.find(q.qname) ? RCODE.NOTAUTH : RCODE.REFUSED, q.questionEnd, q.edns !== null)];
    if (!options.transferAllowed(address)) return [errorResponse(msg, RCODE.REFUSED, q.questionEnd, q.edns !== null)];
    // RFC 1995 §2: an IXFR over UDP gets the SOA alone, telling the client to use TCP.
    if (!tcp) {
      const res = { rcode: RCODE.NOERROR, aa: true, zone, answer: [zone.soa], authority: [], additional: [] };
      return [encodeResponse(msg, q, res, responseLimit(q, false))];
    }
    const to = zone.domain.serial_number;
    if (q.qtype === T.IXFR) {
      return ixfrMessages(msg, q, zone, options.history)
        .catch((err: unknown) => {
          options.onError?.(err);
          return { mode: 'full' as const, messages: axfrMessages(msg, q, zone) };
        })
        .then(({ mode, messages }) => {
          options.onTransfer?.({ zone: zone.name, type: 'IXFR', client: address, from: q.ixfrSerial, to, mode });
          return messages;
        });
    }
    options.onTransfer?.({ zone: zone.name, type: 'AXFR', client: address, to, mode: 'full' });
    return axfrMessages(msg, q, zone);
  }

  /** SERVFAIL for a query that broke something inside (and the error logged), never a crash. */
  function failed(msg: Buffer, err: unknown): Buffer | null {
    options.onError?.(err);
    return msg.length >= 12 && !(msg[2]! & 0x80) ? errorResponse(msg, RCODE.SERVFAIL) : null;
  }

  return {
    cache,
    udp(msg, address) {
      try {
        // The hot path: one key read from the packet, one map lookup, one copy.
        const fast = questionKey(msg, false);
        const hit = fast && cache.answer(msg, fast.key, fast.nameEnd);
        // Over UDP nothing is asynchronous: an IXFR there is answered with the SOA alone.
      return hit || ((answer(msg, false, address, fast) as Buffer[])[0] ?? null);
      } catch (err) {
        return failed(msg, err);
      }
    },
    tcp(msg, address) {
      try {
        const fast = questionKey(msg, true);
        const hit = fast && cache.answer(msg, fast.key, fast.nameEnd);
        return hit ? [hit] : answer(msg, true, address, fast);
      } catch (err) {
        const out = failed(msg, err);
        return out ? [out] : [];
      }
    },
  };
}
