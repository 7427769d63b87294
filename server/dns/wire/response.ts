/**
 * Turns a resolution into response bytes: header flags, the question as the client sent
 * it, the three sections, and the OPT record (RFC 6891 §6.1.1). Over UDP a response that
 * does not fit the payload size keeps only the question and sets TC (RFC 1035 §4.2.1,
 * RFC 2181 §9); additional data that does not fit is left out without TC, except glue a
 * referral needs (RFC 9471 §3).
 */
import { HEADER_LENGTH, type Query } from './query';
import type { Resolution } from '../index/resolve';
import { T, type RRset } from '../index/rrset';
import { MAX_MESSAGE, MessageWriter } from './writer';

/** Our EDNS(0) UDP payload size: fits a 1280-octet IPv6 MTU (DNS Flag Day 2020). */
export const EDNS_PAYLOAD = 1232;
const CLASSIC_UDP = 512;
const OPT_LENGTH = 11;

const QR = 0x8000;
const AA = 0x0400;
const TC = 0x0200;
/** RD and CD are copied from the query (RFC 1035 §4.1.1, RFC 4035 §3.2.2). */
const COPIED = 0x0100 | 0x0010;

/** The largest response a client can take: 65535 over TCP, else its EDNS payload size. */
export function responseLimit(query: Query, tcp: boolean): number {
  if (tcp) return MAX_MESSAGE;
  if (!query.edns) return CLASSIC_UDP;
  return Math.min(Math.max(query.edns.payload, CLASSIC_UDP), EDNS_PAYLOAD);
}

const queryFlags = (raw: Uint8Array) => ((raw[2]! << 8) | raw[3]!) & COPIED;

function writeSection(w: MessageWriter, sets: RRset[]): number {
  let count = 0;
  for (const set of sets) {
    w.rrset(set);
    count += set.data.length;
  }
  return count;
}

/**
 * Writes additional RRsets one by one, dropping those that no longer fit; `complete` is false if
 * any was dropped. An RRset and the RRSIG set after it (same owner) fit together or are dropped
 * together: an address without its signature is of no use to a validator (RFC 4035 §3.1.1).
 */
function writeAdditional(w: MessageWriter, sets: RRset[]): { count: number; complete: boolean } {
  let count = 0;
  let complete = true;
  for (let i = 0; i < sets.length; i++) {
    const set = sets[i]!;
    const sig = sets[i + 1]?.type === T.RRSIG && set.type !== T.RRSIG && sets[i + 1]!.name === set.name ? sets[++i]! : undefined;
    const mark = w.mark();
    try {
      w.rrset(set);
      if (sig) w.rrset(sig);
      count += set.data.length + (sig ? sig.data.length : 0);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      w.rollback(mark);
      complete = false;
    }
  }
  return { count, complete };
}

export function encodeResponse(raw: Uint8Array, query: Query, res: Resolution, limit: number): Buffer {
  const w = new MessageWriter(limit - (query.edns ? OPT_LENGTH : 0));
  let flags = QR | queryFlags(raw) | (res.rcode & 0x0f) | (res.aa ? AA : 0);
  w.rawQuestion(raw, HEADER_LENGTH, query.questionEnd, query.labels);
  const afterQuestion = w.mark();
  let an = 0;
  let ns = 0;
  let ar = 0;
  try {
    an = writeSection(w, res.answer);
    ns = writeSection(w, res.authority);
    const extra = writeAdditional(w, res.additional);
    ar = extra.count;
    const referral = !res.aa && res.authority[0]?.type === T.NS;
    if (referral && !extra.complete) throw new RangeError('glue does not fit');
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    w.rollback(afterQuestion);
    an = ns = ar = 0;
    flags |= TC;
  }
  if (query.edns) {
    w.opt(EDNS_PAYLOAD, res.rcode >> 4, query.edns.dnssecOk);
    ar++;
  }
  w.header(query.id, flags);
  w.counts(1, an, ns, ar);
  return w.finish();
}

/**
 * An error response (FORMERR, NOTIMP, REFUSED, BADVERS…) echoing the header's ID, opcode
 * and RD, and the question when it could be read.
 */
export function errorResponse(raw: Uint8Array, rcode: number, questionEnd?: number, edns = false): Buffer {
  const q = questionEnd ?? HEADER_LENGTH;
  const out = Buffer.alloc(q + (edns ? OPT_LENGTH : 0));
  out.set(raw.subarray(0, q), 0);
  // QR, the opcode and RD copied; a NOTIMP clears RD, as BIND and Knot answer.
  out[2] = 0x80 | (raw[2]! & (rcode === 4 ? 0x78 : 0x79));
  out[3] = rcode & 0x0f;
  out.writeUInt16BE(q > HEADER_LENGTH ? 1 : 0, 4);
  out.fill(0, 6, 10);
  out.writeUInt16BE(edns ? 1 : 0, 10);
  if (edns) {
    // RFC 6891 §6.1.3: the upper 8 bits of a 12-bit RCODE live in the OPT TTL field.
    const w = new MessageWriter(OPT_LENGTH);
    w.offset = 0;
    w.opt(EDNS_PAYLOAD, rcode >> 4);
    out.set(w.buf.subarray(0, OPT_LENGTH), q);
  }
  return out;
}
