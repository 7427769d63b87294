/**
 * TSIG (RFC 8945): verifying a request's MAC, and signing responses (each message of a
 * multi-message TCP answer too) and our own requests. Pure functions over bytes; the key
 * lookup and the clock are passed in. The record's wire form is tsig-record.ts.
 *
 * What a MAC covers (§4.3): [the prior MAC, with its two-octet length] + the message as it
 * was before the TSIG RR was added (ARCOUNT one less, the original ID) + the TSIG variables
 * (key name, class ANY, TTL 0, algorithm name, time signed, fudge, error, other data) — or,
 * for the second and later messages of one answer, the timers only (§5.3.1).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TsigAlgorithmName } from '../../core/tsig-rules';
import { append, findTsig, tsigRR, u16, unsignedPart, timers, variables, writeU48, type Fields, type TsigRecord } from './tsig-record';

export { findTsig, T_TSIG, tsigSpace, type TsigRecord } from './tsig-record';

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

const withLength = (mac: Buffer) => Buffer.concat([Buffer.from([mac.length >> 8, mac.length & 255]), mac]);

function hmac(key: TsigKey, parts: Uint8Array[]): Buffer {
  const h = createHmac(TSIG_ALGORITHMS[key.algorithm].hash, key.secret);
  for (const p of parts) h.update(p);
  return h.digest();
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
  // §5.2.3 checks the time against the Fudge; the request's own Fudge would let a client pick its
  // window (65535 s), so the server's (300 s, §10's recommendation) bounds it whatever is sent.
  if (Math.abs(clock() - rec.timeSigned) > Math.min(rec.fudge, FUDGE)) return { ok: false, rcode: RCODE_NOTAUTH, error: TSIG_ERROR.BADTIME, record: rec, key };
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

/** The names of the TSIG errors, for messages. */
export const TSIG_ERROR_NAMES: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };

/**
 * Verifies, message by message as they arrive, the answer to a request we signed with `key`
 * (whose MAC was `requestMac`): the first signed over the request MAC with every variable,
 * each later one over the MAC before it and the timers (§5.3.1). Up to 99 unsigned messages may
 * come between signed ones; they count toward the next MAC. `push` returns the TSIG error of a
 * message that fails (BADSIG, BADKEY, BADTIME, or the error the server sent), else 0;
 * `finish` the error when the answer did not end signed.
 */
export class AnswerVerifier {
  private prior: Buffer;
  private pending: Buffer[] = [];
  private first = true;

  constructor(
    private readonly key: TsigKey,
    requestMac: Buffer,
    private readonly clock: () => number = now,
  ) {
    this.prior = requestMac;
  }

  push(msg: Uint8Array): number {
    const rec = findTsig(msg);
    if (rec === 'malformed') return TSIG_ERROR.BADSIG;
    if (rec === null) {
      // The first message must be signed (§5.3.1); past 99 unsigned in a row, give up.
      if (this.first || this.pending.length >= 99) return TSIG_ERROR.BADSIG;
      this.pending.push(Buffer.from(msg));
      return 0;
    }
    const { key } = this;
    if (rec.name !== key.name || rec.algorithm !== key.algorithm) return TSIG_ERROR.BADKEY;
    if (rec.error !== 0) return rec.error;
    if (rec.mac.length > TSIG_ALGORITHMS[key.algorithm].size || rec.mac.length < minMacLength(key.algorithm)) return TSIG_ERROR.BADSIG;
    const tail = this.first ? variables(rec) : timers(rec.timeSigned, rec.fudge);
    const expected = hmac(key, [withLength(this.prior), ...this.pending, unsignedPart(msg, rec), tail]).subarray(0, rec.mac.length);
    if (!timingSafeEqual(expected, rec.mac)) return TSIG_ERROR.BADSIG;
    if (Math.abs(this.clock() - rec.timeSigned) > rec.fudge) return TSIG_ERROR.BADTIME;
    this.prior = rec.mac;
    this.pending = [];
    this.first = false;
    return 0;
  }

  /** 0 when the answer so far ends with a verified signed message (the last one must be signed). */
  finish(): number {
    return this.first || this.pending.length > 0 ? TSIG_ERROR.BADSIG : 0;
  }
}

/** Verifies a whole answer at once (see AnswerVerifier): the first TSIG error, or 0. */
export function verifyAnswer(messages: Uint8Array[], key: TsigKey, requestMac: Buffer, clock: () => number = now): number {
  const v = new AnswerVerifier(key, requestMac, clock);
  for (const m of messages) {
    const err = v.push(m);
    if (err) return err;
  }
  return v.finish();
}
