/**
 * Response rate limiting, as Knot's and BIND's RRL do it (DNS_RATE_LIMIT): over
 * UDP, identical responses to one client prefix (/24 for IPv4, /56 for IPv6) are limited to
 * `rate` a second. "Identical" is the response's class and the name it is counted under, which the
 * resolver decides (resolve.ts `rrlName`): a positive answer by name and type; a NODATA or a
 * referral by name alone (its answer section names no type, as BIND counts them); a name a wildcard
 * or a DNAME answered under the wildcard's or the DNAME's owner, a referral under its zone cut, an
 * NXDOMAIN under its zone, so that names an asker makes up share one bucket; a refusal or an error
 * by class alone. Past the rate every `slip`-th response goes out
 * truncated (TC=1, no records: a real resolver asks again over TCP, which is never limited) and
 * the rest are dropped, so a spoofed victim receives a trickle of small packets instead of the
 * amplified answers. A client that returns a good DNS cookie is exempt (cookies.ts).
 *
 * Memory is bounded: the buckets live in fixed typed arrays indexed by a hash of the key; a
 * colliding key takes the slot over with a full bucket, which can only let more through.
 */
import { DEFENCE, dnsDefences } from '../../counters';
import type { ResponseKind } from '../index/resolve';
import { clientPrefix } from './client-prefix';

export type RrlVerdict = 'pass' | 'slip' | 'drop';

export interface RrlOptions {
  /** Identical responses a second per client prefix. */
  rate: number;
  /** Every slip-th limited response is sent truncated; 0 drops them all. */
  slip: number;
  /** Buckets (a power of two). */
  slots?: number;
  /** Milliseconds, for tests. */
  clock?: () => number;
}

/** What a response is about, for its bucket. */
export const RRL_CLASS = { ANSWER: 1, NODATA: 2, NXDOMAIN: 3, REFUSED: 4, ERROR: 5, REFERRAL: 6 } as const;

/** The class of each kind of response the resolver makes. */
export const RRL_CLASS_OF: Readonly<Record<ResponseKind, number>> = {
  answer: RRL_CLASS.ANSWER,
  nodata: RRL_CLASS.NODATA,
  nxdomain: RRL_CLASS.NXDOMAIN,
  referral: RRL_CLASS.REFERRAL,
  refused: RRL_CLASS.REFUSED,
  error: RRL_CLASS.ERROR,
};

/** FNV-1a over a string's UTF-16 units. */
export function fnv(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** FNV-1a over the octets of a wire-format name, upper case folded (queries may randomize case). */
export function fnvName(buf: Uint8Array, start: number, end: number, h = 0x811c9dc5): number {
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    h = Math.imul(h ^ (c >= 0x41 && c <= 0x5a ? c | 0x20 : c), 0x01000193);
  }
  return h >>> 0;
}

const prefixHashes = new Map<string, number>();
/** The hash of the client's prefix, memoised by address (bounded). */
function prefixHash(address: string): number {
  let h = prefixHashes.get(address);
  if (h === undefined) {
    h = fnv(clientPrefix(address));
    if (prefixHashes.size >= 8192) prefixHashes.clear();
    prefixHashes.set(address, h);
  }
  return h;
}

/**
 * Milliseconds, read from a value a timer renews every 10 ms: a bucket needs no finer time, and
 * Date.now() on every answer is a measurable part of the rate at 150,000 answers a second.
 */
let coarseNow = Date.now();
let ticking: NodeJS.Timeout | null = null;
function coarseClock(): number {
  if (!ticking) {
    ticking = setInterval(() => (coarseNow = Date.now()), 10);
    ticking.unref();
    coarseNow = Date.now();
  }
  return coarseNow;
}

export class ResponseRateLimiter {
  readonly counts = { dropped: 0, slipped: 0 };
  private readonly mask: number;
  private readonly keys: Uint32Array;
  private readonly tokens: Float64Array;
  private readonly stamps: Float64Array;
  private readonly clock: () => number;
  private limited = 0;

  constructor(private readonly options: RrlOptions) {
    const slots = options.slots ?? 1 << 16;
    this.mask = slots - 1;
    this.keys = new Uint32Array(slots);
    this.tokens = new Float64Array(slots);
    this.stamps = new Float64Array(slots);
    this.clock = options.clock ?? coarseClock;
  }

  /**
   * Whether a response of this class may go to `address`: `name` is the hash (fnv, fnvName) of the
   * name it is counted under (ignored for refusals and errors), `qtype` counts for answers only.
   */
  judge(address: string, cls: number, name: number, qtype: number): RrlVerdict {
    let h = Math.imul(prefixHash(address) ^ cls, 0x01000193);
    if (cls === RRL_CLASS.ANSWER) h = Math.imul(h ^ qtype, 0x01000193);
    if (cls !== RRL_CLASS.REFUSED && cls !== RRL_CLASS.ERROR) h = Math.imul(h ^ name, 0x01000193);
    h = h >>> 0 || 1;
    const slot = (h ^ (h >>> 16)) & this.mask;
    const now = this.clock();
    const rate = this.options.rate;
    let tokens: number;
    if (this.keys[slot] !== h) {
      this.keys[slot] = h;
      tokens = rate;
    } else {
      tokens = Math.min(rate, this.tokens[slot]! + ((now - this.stamps[slot]!) * rate) / 1000);
    }
    this.stamps[slot] = now;
    if (tokens >= 1) {
      this.tokens[slot] = tokens - 1;
      return 'pass';
    }
    this.tokens[slot] = tokens;
    const slip = this.options.slip;
    if (slip > 0 && ++this.limited % slip === 0) {
      this.counts.slipped++;
      dnsDefences[DEFENCE.RRL_SLIPPED]! += 1;
      return 'slip';
    }
    this.counts.dropped++;
    dnsDefences[DEFENCE.RRL_DROPPED]! += 1;
    return 'drop';
  }
}

/**
 * The truncated form of a response: its header and question with TC set and no records, and
 * an empty OPT when the query had one.
 */
export function slipResponse(response: Buffer, questionEnd: number, edns: boolean): Buffer {
  const out = Buffer.alloc(questionEnd + (edns ? 11 : 0));
  response.copy(out, 0, 0, questionEnd);
  out[2] = out[2]! | 0x02;
  out.writeUInt16BE(0, 6);
  out.writeUInt16BE(0, 8);
  out.writeUInt16BE(edns ? 1 : 0, 10);
  if (edns) {
    // Root, type OPT, our payload size, no flags, no options.
    out[questionEnd] = 0;
    out.writeUInt16BE(41, questionEnd + 1);
    out.writeUInt16BE(1232, questionEnd + 3);
  }
  return out;
}
