/**
 * TSIG (RFC 8945): finding the TSIG record of a message, verifying a request's MAC, and
 * signing responses (each message of a multi-message TCP answer too) and our own requests.
 * Pure functions over bytes; the key lookup and the clock are passed in.
 *
 * What a MAC covers (§4.3): [the prior MAC, with its two-octet length] + the message as it
 * was before the TSIG RR was added (ARCOUNT one less, the original ID) + the TSIG variables
 * (key name, class ANY, TTL 0, algorithm name, time signed, fudge, error, other data) — or,
 * for the second and later messages of one answer, the timers only (§5.3.1).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TsigAlgorithmName } from '../core/tsig-rules';

export const T_TSIG = 250;
const CLASS_ANY = 255;
/** Seconds of clock difference allowed (RFC 8945 §10 recommends 300). */
export const FUDGE = 300;

/** TSIG error codes (RFC 8945 §3, IANA "DNS RCODEs"). */
export const TSIG_ERROR = { NOERROR: 0, BADSIG: 16, BADKEY: 17, BADTIME: 18, BADTRUNC: 22 } as const;
const RCODE_FORMERR = 1;
const RCODE_NOTAUTH = 9;

/** The algorithms we sign and verify with (RFC 8945 §6), by the names BIND and Knot use, and their hash. */
export const TSIG_ALGORITHMS: Record<TsigAlgorithmName, { hash: string; size: number }> = {
  'hmac-sha1': { hash: 'sha1', size: 20 },
  'hmac-sha224': { hash: 'sha224', size: 28 },
  'hmac-sha256': { hash: 'sha256', size: 32 },
  'hmac-sha384': { hash: 'sha384', size: 48 },
  'hmac-sha512': { hash: 'sha512', size: 64 },
};

export type TsigAlgorithm = TsigAlgorithmName;

export interface TsigKey {
  /** Lower case, no trailing dot. */
  name: string;
  algorithm: TsigAlgorithm;
  secret: Buffer;
}

/** A TSIG record as found at the end of a message. */
export interface TsigRecord {
  /** The key name, lower case, no trailing dot (odd octets escaped as \DDD, so they never match a key). */
  name: string;
  /** The algorithm name, lower case, no trailing dot. */
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
  /** Where the TSIG RR starts: the message before it is what was signed. */
  start: number;
  /** Where the question (or UPDATE zone) section ends, when there is exactly one entry. */
  questionEnd?: number;
}

class Malformed extends Error {}

const u16 = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const u48 = (b: Uint8Array, o: number) => u16(b, o) * 2 ** 32 + ((b[o + 2]! << 24) >>> 0) + (b[o + 3]! << 16) + (b[o + 4]! << 8) + b[o + 5]!;

/** Reads a possibly compressed name (RFC 1035 §4.1.4) as lower-case text; returns where it ends in place. */
function readName(buf: Uint8Array, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let jumps = 0; ; ) {
    if (pos >= buf.length) throw new Malformed();
    const len = buf[pos]!;
    if (len === 0) {
      if (end < 0) end = pos + 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= buf.length || ++jumps > 64) throw new Malformed();
      if (end < 0) end = pos + 2;
      pos = ((len & 0x3f) << 8) | buf[pos + 1]!;
      continue;
    }
    if (len > 63 || pos + 1 + len > buf.length) throw new Malformed();
    let label = '';
    for (let i = pos + 1; i <= pos + len; i++) {
      let c = buf[i]!;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      label += c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x5c ? String.fromCharCode(c) : `\\${String(c).padStart(3, '0')}`;
    }
    labels.push(label);
    pos += len + 1;
  }
  return { name: labels.join('.'), end };
}

/** Uncompressed wire form of a name given as lower-case text (escapes as query.ts writes them). */
function nameWire(name: string): Buffer {
  if (name === '') return Buffer.from([0]);
  const parts: Buffer[] = [];
  for (const label of name.split('.')) {
    const bytes = Buffer.from(label.replace(/\\([0-9]{3})/g, (_, d: string) => String.fromCharCode(Number(d))), 'latin1');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/**
 * The TSIG record of a message: null when there is none, 'malformed' when there is one that
 * is not the last record of the additional section, is not class ANY, or cannot be read
 * (RFC 8945 §5.2: FORMERR). Walks the message once; cheap for the short messages it sees.
 */
export function findTsig(msg: Uint8Array): TsigRecord | null | 'malformed' {
  if (msg.length < 12) return null;
  const arcount = u16(msg, 10);
  if (arcount === 0) return null;
  const qd = u16(msg, 4);
  const total = u16(msg, 6) + u16(msg, 8) + arcount;
  try {
    let pos = 12;
    for (let i = 0; i < qd; i++) {
      pos = readName(msg, pos).end + 4;
      if (pos > msg.length) throw new Malformed();
    }
    const questionEnd = qd === 1 ? pos : undefined;
    for (let i = 0; i < total; i++) {
      const start = pos;
      const owner = readName(msg, pos);
      pos = owner.end;
      if (pos + 10 > msg.length) throw new Malformed();
      const type = u16(msg, pos);
      const rdlength = u16(msg, pos + 8);
      const rdata = pos + 10;
      pos = rdata + rdlength;
      if (pos > msg.length) throw new Malformed();
      if (type !== T_TSIG) continue;
      // §5.1: the TSIG RR is the last record of the additional section; anything else is malformed.
      if (i !== total - 1 || pos !== msg.length || u16(msg, owner.end + 2) !== CLASS_ANY) return 'malformed';
      return { ...readRdata(msg, rdata, pos), name: owner.name, start, questionEnd };
    }
    return null;
  } catch (e) {
    if (e instanceof Malformed) return 'malformed';
    throw e;
  }
}

function readRdata(msg: Uint8Array, at: number, end: number) {
  const alg = readName(msg, at);
  let p = alg.end;
  const need = (n: number) => {
    if (p + n > end) throw new Malformed();
  };
  need(10);
  const timeSigned = u48(msg, p);
  const fudge = u16(msg, p + 6);
  const macSize = u16(msg, p + 8);
  p += 10;
  need(macSize + 6);
  const mac = Buffer.from(msg.subarray(p, p + macSize));
  p += macSize;
  const originalId = u16(msg, p);
  const error = u16(msg, p + 2);
  const otherLen = u16(msg, p + 4);
  p += 6;
  need(otherLen);
  const other = Buffer.from(msg.subarray(p, p + otherLen));
  if (p + otherLen !== end) throw new Malformed();
  return { algorithm: alg.name, timeSigned, fudge, mac, originalId, error, other };
}

const writeU48 = (b: Buffer, v: number, o: number) => {
  b.writeUInt16BE(Math.floor(v / 2 ** 32), o);
  b.writeUInt32BE(v % 2 ** 32, o + 2);
};

interface Fields {
  name: string;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  error: number;
  other: Buffer;
}

/** The TSIG variables of §4.3.3, in canonical (lower case, uncompressed) form. */
function variables(f: Fields): Buffer {
  const name = nameWire(f.name);
  const alg = nameWire(f.algorithm);
  const out = Buffer.alloc(name.length + 6 + alg.length + 12 + f.other.length);
  let p = name.copy(out, 0);
  out.writeUInt16BE(CLASS_ANY, p);
  out.writeUInt32BE(0, p + 2);
  p += 6;
  p += alg.copy(out, p);
  writeU48(out, f.timeSigned, p);
  out.writeUInt16BE(f.fudge, p + 6);
  out.writeUInt16BE(f.error, p + 8);
  out.writeUInt16BE(f.other.length, p + 10);
  f.other.copy(out, p + 12);
  return out;
}

/** The TSIG timers of §5.3.1 (second and later messages of one answer). */
function timers(timeSigned: number, fudge: number): Buffer {
  const out = Buffer.alloc(8);
  writeU48(out, timeSigned, 0);
  out.writeUInt16BE(fudge, 6);
  return out;
}

const withLength = (mac: Buffer) => Buffer.concat([Buffer.from([mac.length >> 8, mac.length & 255]), mac]);

function hmac(key: TsigKey, parts: Uint8Array[]): Buffer {
  const h = createHmac(TSIG_ALGORITHMS[key.algorithm].hash, key.secret);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The message as it was signed: without its TSIG RR, ARCOUNT one less, the original ID (§4.3.2). */
function unsignedPart(msg: Uint8Array, rec: TsigRecord): Buffer {
  const out = Buffer.from(msg.subarray(0, rec.start));
  out.writeUInt16BE(rec.originalId, 0);
  out.writeUInt16BE(u16(out, 10) - 1, 10);
  return out;
}

/** The TSIG RR in wire form. */
function tsigRR(f: Fields & { mac: Buffer; originalId: number }): Buffer {
  const name = nameWire(f.name);
  const alg = nameWire(f.algorithm);
  const rdlength = alg.length + 16 + f.mac.length + f.other.length;
  const out = Buffer.alloc(name.length + 10 + rdlength);
  let p = name.copy(out, 0);
  out.writeUInt16BE(T_TSIG, p);
  out.writeUInt16BE(CLASS_ANY, p + 2);
  out.writeUInt32BE(0, p + 4);
  out.writeUInt16BE(rdlength, p + 8);
  p += 10;
  p += alg.copy(out, p);
  writeU48(out, f.timeSigned, p);
  out.writeUInt16BE(f.fudge, p + 6);
  out.writeUInt16BE(f.mac.length, p + 8);
  p += 10;
  p += f.mac.copy(out, p);
  out.writeUInt16BE(f.originalId, p);
  out.writeUInt16BE(f.error, p + 2);
  out.writeUInt16BE(f.other.length, p + 4);
  f.other.copy(out, p + 6);
  return out;
}

/** The message with a TSIG RR appended and ARCOUNT one more. */
function append(msg: Buffer, rr: Buffer): Buffer {
  const out = Buffer.concat([msg, rr]);
  out.writeUInt16BE(u16(out, 10) + 1, 10);
  return out;
}

/** Octets a TSIG RR with this key adds to a message (at most; for leaving room when packing). */
export function tsigSpace(keyName: string, algorithm: string): number {
  return nameWire(keyName).length + 10 + nameWire(algorithm).length + 16 + 64 + 6;
}

const now = () => Math.floor(Date.now() / 1000);

/** The smallest MAC a signer may send for an algorithm (§5.2.2.1: the larger of 10 and half the hash). */
export const minMacLength = (algorithm: TsigAlgorithm) => Math.max(10, Math.ceil(TSIG_ALGORITHMS[algorithm].size / 2));

export type Verification<K extends TsigKey> =
  | { ok: true; key: K; record: TsigRecord }
  /** `rcode` to answer with; `error` the TSIG error; `key` set when the error answer must be signed (BADTIME). */
  | { ok: false; rcode: number; error: number; record: TsigRecord; key?: K };

/**
 * Verifies a request's TSIG (RFC 8945 §5.2): the key (BADKEY), the MAC length (§5.2.2.1:
 * FORMERR), the MAC (BADSIG), then the time (BADTIME, §5.2.3). `clock` gives seconds since 1970.
 */
export function verifyRequest<K extends TsigKey>(msg: Uint8Array, rec: TsigRecord, lookup: (name: string) => K | undefined, clock: () => number = now): Verification<K> {
  const key = lookup(rec.name);
  if (!key || key.algorithm !== rec.algorithm) return { ok: false, rcode: RCODE_NOTAUTH, error: TSIG_ERROR.BADKEY, record: rec };
  const size = TSIG_ALGORITHMS[key.algorithm].size;
  if (rec.mac.length > size || rec.mac.length < minMacLength(key.algorithm)) return { ok: false, rcode: RCODE_FORMERR, error: TSIG_ERROR.NOERROR, record: rec };
  const expected = hmac(key, [unsignedPart(msg, rec), variables(rec)]).subarray(0, rec.mac.length);
  if (!timingSafeEqual(expected, rec.mac)) return { ok: false, rcode: RCODE_NOTAUTH, error: TSIG_ERROR.BADSIG, record: rec };
  if (Math.abs(clock() - rec.timeSigned) > rec.fudge) return { ok: false, rcode: RCODE_NOTAUTH, error: TSIG_ERROR.BADTIME, record: rec, key };
  return { ok: true, key, record: rec };
}

/**
 * Signs the messages of one answer to a verified request (§5.3): the first with the request's
 * MAC as prior MAC and every TSIG variable, each later one with the MAC before it and the
 * timers only (§5.3.1). The MACs are as long as the request's (a truncated request gets
 * truncated answers). The messages must leave `tsigSpace` octets free.
 */
export function signAnswer(messages: Buffer[], key: TsigKey, request: TsigRecord, clock: () => number = now): Buffer[] {
  const time = clock();
  let prior = request.mac;
  return messages.map((m, i) => {
    const f: Fields = { name: key.name, algorithm: key.algorithm, timeSigned: time, fudge: FUDGE, error: 0, other: Buffer.alloc(0) };
    const mac = hmac(key, [withLength(prior), m, i === 0 ? variables(f) : timers(time, FUDGE)]).subarray(0, request.mac.length);
    prior = mac;
    return append(m, tsigRR({ ...f, mac, originalId: u16(m, 0) }));
  });
}

/**
 * Signs a request of our own (a NOTIFY): no prior MAC, every variable (§4.3).
 * Returns the signed message and its MAC, which a verifier of the reply would need.
 */
export function signRequest(msg: Buffer, key: TsigKey, clock: () => number = now): { message: Buffer; mac: Buffer } {
  const f: Fields = { name: key.name, algorithm: key.algorithm, timeSigned: clock(), fudge: FUDGE, error: 0, other: Buffer.alloc(0) };
  const mac = hmac(key, [msg, variables(f)]);
  return { message: append(msg, tsigRR({ ...f, mac, originalId: u16(msg, 0) })), mac };
}

/**
 * The TSIG RR for an error answer (§5.3.2), appended to `response` (which carries the RCODE).
 * BADKEY and BADSIG go unsigned (no MAC); BADTIME is signed with the key, over the request's
 * MAC, with the request's Time Signed and our time in Other Data, so the client can see the skew.
 */
export function signError(response: Buffer, failed: Extract<Verification<TsigKey>, { ok: false }>, clock: () => number = now): Buffer {
  const rec = failed.record;
  const base = { name: rec.name, algorithm: rec.algorithm, fudge: FUDGE, error: failed.error, originalId: u16(response, 0) };
  if (!failed.key) return append(response, tsigRR({ ...base, timeSigned: clock(), other: Buffer.alloc(0), mac: Buffer.alloc(0) }));
  const other = Buffer.alloc(6);
  writeU48(other, clock(), 0);
  const f: Fields = { ...base, timeSigned: rec.timeSigned, other };
  const mac = hmac(failed.key, [withLength(rec.mac), response, variables(f)]).subarray(0, rec.mac.length);
  return append(response, tsigRR({ ...f, mac, originalId: base.originalId }));
}

/**
 * Verifies the messages of an answer to a request we signed with `key` (whose MAC was
 * `requestMac`): the first signed over the request MAC with every variable, each later one over
 * the MAC before it and the timers (§5.3.1). Up to 99 unsigned messages may come between signed
 * ones; they count toward the next MAC, and the last message must be signed. Returns the TSIG
 * error of the first message that fails (BADSIG, BADKEY, or the error the server sent), or 0.
 */
export function verifyAnswer(messages: Uint8Array[], key: TsigKey, requestMac: Buffer, clock: () => number = now): number {
  let prior = requestMac;
  let pending: Buffer[] = [];
  let first = true;
  for (const [i, msg] of messages.entries()) {
    const rec = findTsig(msg);
    if (rec === 'malformed') return TSIG_ERROR.BADSIG;
    if (rec === null) {
      if (first || pending.length >= 99 || i === messages.length - 1) return TSIG_ERROR.BADSIG;
      pending.push(Buffer.from(msg));
      continue;
    }
    if (rec.name !== key.name || rec.algorithm !== key.algorithm) return TSIG_ERROR.BADKEY;
    if (rec.error !== 0) return rec.error;
    if (rec.mac.length > TSIG_ALGORITHMS[key.algorithm].size || rec.mac.length < minMacLength(key.algorithm)) return TSIG_ERROR.BADSIG;
    const tail = first ? variables(rec) : timers(rec.timeSigned, rec.fudge);
    const expected = hmac(key, [withLength(prior), ...pending, unsignedPart(msg, rec), tail]).subarray(0, rec.mac.length);
    if (!timingSafeEqual(expected, rec.mac)) return TSIG_ERROR.BADSIG;
    if (Math.abs(clock() - rec.timeSigned) > rec.fudge) return TSIG_ERROR.BADTIME;
    prior = rec.mac;
    pending = [];
    first = false;
  }
  return first ? TSIG_ERROR.BADSIG : 0;
}
