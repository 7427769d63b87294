/**
 * Response rate limiting, as Knot's and BIND's RRL do it (DNS_RATE_LIMIT, DESIGN.md §18): over
 * UDP, identical responses to one client prefix (/24 for IPv4, /56 for IPv6) are limited to
 * `rate` a second. "Identical" is the response's class and what it names: a positive answer or a
 * NODATA by its name and type, an NXDOMAIN by its zone (so random names under one zone share a
 * bucket), a refusal or an error by class alone. Past the rate every `slip`-th response goes out
 * truncated (TC=1, no records: a real resolver asks again over TCP, which is never limited) and
 * the rest are dropped, so a spoofed victim receives a trickle of small packets instead of the
 * amplified answers. A client that returns a good DNS cookie is exempt (cookies.ts).
 *
 * Memory is bounded: the buckets live in fixed typed arrays indexed by a hash of the key; a
 * colliding key takes the slot over with a full bucket, which can only let more through.
 */
import ipaddr from 'ipaddr.js';
import { DEFENCE, dnsDefences } from '../metrics';

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
export const RRL_CLASS = { ANSWER: 1, NODATA: 2, NXDOMAIN: 3, REFUSED: 4, ERROR: 5 } as const;

const prefixMemo = new Map<string, string>();

/** The client's network: the /24 of an IPv4 address, the /56 of an IPv6 one. */
export function clientPrefix(address: string): string {
  const dot = address.lastIndexOf('.');
  if (dot > 0 && !address.includes(':')) return address.slice(0, dot);
  let p = prefixMemo.get(address);
  if (p !== undefined) return p;
  try {
    const a = ipaddr.process(address);
    if (a.kind() === 'ipv4') p = a.toString().slice(0, a.toString().lastIndexOf('.'));
    else {
      const b = a.toByteArray();
      p = Buffer.from(b.slice(0, 7)).toString('hex');
    }
  } catch {
    p = address;
  }
  if (prefixMemo.size >= 4096) prefixMemo.clear();
  prefixMemo.set(address, p);
  return p;
}

/** FNV-1a over a string's UTF-16 units. */
function fnv(s: string, h: number): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
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
    this.clock = options.clock ?? Date.now;
  }

  /** Whether a response of this class about `name` (and `qtype`) may go to `address`. */
  judge(address: string, cls: number, name: string, qtype: number): RrlVerdict {
    let h = fnv(clientPrefix(address), 0x811c9dc5);
    h = Math.imul(h ^ cls, 0x01000193);
    if (cls === RRL_CLASS.ANSWER || cls === RRL_CLASS.NODATA) h = Math.imul(h ^ qtype, 0x01000193);
    if (cls !== RRL_CLASS.REFUSED && cls !== RRL_CLASS.ERROR) h = fnv(name, h);
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
