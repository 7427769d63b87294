/**
 * Parses an incoming query message (RFC 1035 §4.1) defensively: any octet string gives
 * either a query, a reason to answer with an error RCODE, or a reason to stay silent.
 * The question name comes out lower case with non-LDH octets escaped as \DDD, so a name
 * with odd octets can never be mistaken for a stored one. EDNS(0) per RFC 6891 §6.1.
 */
import { COOKIE_OPTION, type QueryCookie } from './cookies';
import { RCODE, T } from '../index/rrset';

export interface Edns {
  /** The requestor's UDP payload size (RFC 6891 §6.2.3). */
  payload: number;
  version: number;
  dnssecOk: boolean;
  /** The COOKIE option (RFC 7873 §4), if the query carried one. */
  cookie: QueryCookie | null;
}

export interface Query {
  id: number;
  opcode: number;
  /** Lower case, absolute, no trailing dot; '' for the root. */
  qname: string;
  labels: string[];
  qtype: number;
  qclass: number;
  /** Where the question entry ends (after QCLASS). */
  questionEnd: number;
  edns: Edns | null;
  /** The serial of the SOA in an IXFR query's authority section: the client's version (RFC 1995 §3). */
  ixfrSerial?: number;
}

export type Parsed =
  | { kind: 'query'; query: Query }
  /**
   * Answer with this RCODE; `questionEnd` is set when the question could be echoed, `edns` when the
   * query carried an OPT (RFC 6891 §6.1.1: the answer then carries one too).
   */
  | { kind: 'error'; rcode: number; questionEnd?: number; edns?: boolean }
  /** No question, only a COOKIE option: a client asking for a server cookie (RFC 7873 §5.4). */
  | { kind: 'cookie'; edns: Edns }
  /** Not a query, or too short to answer: send nothing (RFC 1035 §7.3, no answers to answers). */
  | { kind: 'drop' };

export const HEADER_LENGTH = 12;
const MAX_NAME = 255;

class Malformed extends Error {}
/** A COOKIE option of a length RFC 7873 §5.2.2 rules out: FORMERR, with an OPT. */
class BadCookie extends Error {}

const escapeOctet = (c: number) => `\\${String(c).padStart(3, '0')}`;

/** Reads an uncompressed name at `offset` (a query has nothing earlier to point at). */
function readName(buf: Uint8Array, offset: number): { labels: string[]; end: number } {
  const labels: string[] = [];
  let pos = offset;
  for (;;) {
    if (pos >= buf.length) throw new Malformed();
    const len = buf[pos]!;
    if (len === 0) break;
    if (len > 63 || pos + 1 + len > buf.length) throw new Malformed();
    let label = '';
    for (let i = pos + 1; i <= pos + len; i++) {
      let c = buf[i]!;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      label += c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x5c ? String.fromCharCode(c) : escapeOctet(c);
    }
    labels.push(label);
    pos += len + 1;
    if (pos - offset > MAX_NAME - 1) throw new Malformed();
  }
  return { labels, end: pos + 1 };
}

/** Skips a possibly compressed name in a record of the other sections. */
function skipName(buf: Uint8Array, offset: number): number {
  let pos = offset;
  for (;;) {
    if (pos >= buf.length) throw new Malformed();
    const len = buf[pos]!;
    if (len === 0) return pos + 1;
    if ((len & 0xc0) === 0xc0) return pos + 2;
    if (len > 63) throw new Malformed();
    pos += len + 1;
  }
}

const u16 = (buf: Uint8Array, o: number) => (buf[o]! << 8) | buf[o + 1]!;

export function parseQuery(buf: Uint8Array): Parsed {
  if (buf.length < HEADER_LENGTH || buf[2]! & 0x80) return { kind: 'drop' };
  const opcode = (buf[2]! >> 3) & 0x0f;
  // RFC 1035 §4.1.1: only standard queries are served; NOTIFY and UPDATE are for primaries' peers.
  if (opcode !== 0) return { kind: 'error', rcode: RCODE.NOTIMP, edns: carriesOpt(buf) };
  const qdcount = u16(buf, 4);
  if (qdcount === 0) {
    try {
      const { edns } = readOthers(buf, HEADER_LENGTH, u16(buf, 6) + u16(buf, 8), u16(buf, 10));
      if (edns?.cookie && edns.version === 0) return { kind: 'cookie', edns };
      return { kind: 'error', rcode: RCODE.FORMERR, questionEnd: HEADER_LENGTH, edns: edns !== null };
    } catch {
      return { kind: 'error', rcode: RCODE.FORMERR, edns: carriesOpt(buf) };
    }
  }
  if (qdcount !== 1) return { kind: 'error', rcode: RCODE.FORMERR, edns: carriesOpt(buf) };
  try {
    const { labels, end } = readName(buf, HEADER_LENGTH);
    if (end + 4 > buf.length) throw new Malformed();
    const qtype = u16(buf, end);
    const qclass = u16(buf, end + 2);
    const questionEnd = end + 4;
    // RFC 6891 §6.1.1: OPT is never asked for; RFC 6895 §3.1: other meta types are not served.
    if (qtype === T.OPT) return { kind: 'error', rcode: RCODE.FORMERR, questionEnd, edns: carriesOpt(buf) };
    // RFC 9824 §3.5: NXNAME only marks compact denial NSECs; asking for it is a format error.
    if (qtype === T.NXNAME) return { kind: 'error', rcode: RCODE.FORMERR, questionEnd, edns: carriesOpt(buf) };
    if (qtype >= 128 && qtype <= 254 && qtype !== T.IXFR && qtype !== T.AXFR) return { kind: 'error', rcode: RCODE.NOTIMP, questionEnd, edns: carriesOpt(buf) };
    const { edns, soaSerial } = readOthers(buf, questionEnd, u16(buf, 6) + u16(buf, 8), u16(buf, 10));
    const query: Query = { id: u16(buf, 0), opcode, qname: labels.join('.'), labels, qtype, qclass, questionEnd, edns };
    if (qtype === T.IXFR && soaSerial !== undefined) query.ixfrSerial = soaSerial;
    return { kind: 'query', query };
  } catch (e) {
    if (e instanceof Malformed) return { kind: 'error', rcode: RCODE.FORMERR };
    if (e instanceof BadCookie) return { kind: 'error', rcode: RCODE.FORMERR, questionEnd: questionEndOf(buf), edns: true };
    throw e;
  }
}

/**
 * Whether a message that will get an error answer carried an OPT (RFC 6891 §6.1.1: every answer
 * to an EDNS query carries one, errors too; RFC 8906 probes ask exactly this). Best effort: the
 * sections are walked as far as they read; a message that does not read has none.
 */
export function carriesOpt(buf: Uint8Array): boolean {
  if ((buf[10]! | buf[11]!) === 0) return false;
  try {
    let pos = HEADER_LENGTH;
    for (let i = 0; i < u16(buf, 4); i++) pos = skipName(buf, pos) + 4;
    return readOthers(buf, pos, u16(buf, 6) + u16(buf, 8), u16(buf, 10)).edns !== null;
  } catch {
    return false;
  }
}

/**
 * Walks the answer/authority records and finds the one OPT, and the serial of an SOA in the
 * authority section (an IXFR query carries the client's SOA there, RFC 1995 §3).
 */
function readOthers(buf: Uint8Array, offset: number, before: number, additional: number): { edns: Edns | null; soaSerial?: number } {
  let pos = offset;
  let edns: Edns | null = null;
  let soaSerial: number | undefined;
  for (let i = 0; i < before + additional; i++) {
    const nameAt = pos;
    pos = skipName(buf, pos);
    if (pos + 10 > buf.length) throw new Malformed();
    const type = u16(buf, pos);
    const rdlength = u16(buf, pos + 8);
    if (pos + 10 + rdlength > buf.length) throw new Malformed();
    if (type === T.OPT) {
      // RFC 6891 §6.1.1: one OPT, in the additional section, owned by the root.
      if (edns || i < before || buf[nameAt] !== 0) throw new Malformed();
      edns = { payload: u16(buf, pos + 2), version: buf[pos + 5]!, dnssecOk: (buf[pos + 6]! & 0x80) !== 0, cookie: readCookie(buf, pos + 10, pos + 10 + rdlength) };
    }
    if (type === T.SOA && i < before && soaSerial === undefined) {
      // MNAME and RNAME (maybe compressed), then SERIAL (RFC 1035 §3.3.13).
      const at = skipName(buf, skipName(buf, pos + 10));
      if (at + 4 > pos + 10 + rdlength) throw new Malformed();
      soaSerial = ((buf[at]! << 24) | (buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!) >>> 0;
    }
    pos += 10 + rdlength;
  }
  return { edns, soaSerial };
}

/** The COOKIE option among an OPT's options (RFC 7873 §4), or null; a wrong length is BadCookie. */
function readCookie(buf: Uint8Array, from: number, to: number): QueryCookie | null {
  let pos = from;
  while (pos + 4 <= to) {
    const code = u16(buf, pos);
    const len = u16(buf, pos + 2);
    if (pos + 4 + len > to) throw new Malformed();
    if (code === COOKIE_OPTION) {
      // §5.2.2: a client cookie alone (8), or with a server cookie of 8 to 32 octets.
      if (len !== 8 && (len < 16 || len > 40)) throw new BadCookie();
      const at = pos + 4;
      return { client: buf.subarray(at, at + 8), server: len > 8 ? buf.subarray(at + 8, at + len) : null };
    }
    pos += 4 + len;
  }
  return null;
}

/** Where the question ends, or the header's end when it does not read. */
function questionEndOf(buf: Uint8Array): number {
  try {
    return skipName(buf, HEADER_LENGTH) + 4 <= buf.length ? skipName(buf, HEADER_LENGTH) + 4 : HEADER_LENGTH;
  } catch {
    return HEADER_LENGTH;
  }
}
