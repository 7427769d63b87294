/**
 * Encoded responses keyed by the question, so a repeated question costs one map lookup
 * and a copy instead of a decode, a resolution and an encode. The key is read straight
 * from the packet for the common shape (one question, at most an OPT record); each entry
 * remembers the zone and zone generation it came from, so a change to a zone makes its
 * entries stale at once (per-zone invalidation) and the rest stay valid. Signed answers
 * (DO bit, part of the key) also carry the time their signatures are renewed, after which
 * they are made anew.
 */
import type { Zone } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';

export interface Entry {
  /** The cache key (questionKey): the question as the answer depends on it. */
  key: string;
  bytes: Buffer;
  zone: Zone | null;
  zoneGen: number;
  setGen: number;
  /** Milliseconds since 1970 after which the entry is stale (0: never, unsigned). */
  until: number;
  /** Query statistics (query-stats.ts): answers from this entry in the counting period `period`. */
  hits: number;
  period: number;
  /** Response rate limiting (rrl.ts): the answer's class and the hash of the name it counts under, worked out once. */
  rrlClass: number;
  rrlName: number;
}

/** Octets of responses kept at most; the oldest go first, which bounds memory under random names. */
const DEFAULT_CAPACITY = 32 * 1024 * 1024;
/** Larger responses (big TCP answers) are rare and cheap to rebuild relative to their size. */
const MAX_ENTRY = 4096;

const scratch = Buffer.allocUnsafe(280);

/**
 * The cache key of a query, or null when it is not of the plain shape: QR=0, opcode 0,
 * QDCOUNT 1, no answer/authority, and either no additional record or exactly one OPT of
 * version 0 that ends the packet. The key is one flat string of the lower-cased question,
 * the transport and the EDNS payload and DO bit: everything the response depends on
 * besides the ID, RD/CD and the question's case, which `answer` copies from the query.
 * Returns the key and where the question name ends.
 */
export function questionKey(buf: Buffer, tcp: boolean): { key: string; nameEnd: number; cookieAt: number; cookieLength: number } | null {
  const len = buf.length;
  if (len < 17 || (buf[2]! & 0xf8) !== 0 || buf[4] !== 0 || buf[5] !== 1 || buf[6] !== 0 || buf[7] !== 0 || buf[8] !== 0 || buf[9] !== 0 || buf[10] !== 0) return null;
  const arcount = buf[11]!;
  if (arcount > 1) return null;
  let pos = 12;
  for (;;) {
    const l = buf[pos]!;
    if (l === 0) break;
    if (l > 63 || pos + l + 1 >= len) return null;
    pos += l + 1;
  }
  const nameEnd = pos + 1;
  const end = nameEnd + 4;
  if (nameEnd > 267 || end > len) return null;
  for (let i = 12; i < nameEnd; i++) {
    const c = buf[i]!;
    scratch[i - 12] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  }
  let k = nameEnd - 12;
  for (let i = nameEnd; i < end; i++) scratch[k++] = buf[i]!;
  scratch[k++] = tcp ? 1 : 0;
  let cookieAt = 0;
  let cookieLength = 0;
  if (arcount === 1) {
    // OPT: root name, type 41, payload, ext-rcode, version 0, flags, rdlength, options.
    if (end + 11 > len || buf[end] !== 0 || buf[end + 1] !== 0 || buf[end + 2] !== 41 || buf[end + 6] !== 0) return null;
    const rdlength = (buf[end + 9]! << 8) | buf[end + 10]!;
    if (end + 11 + rdlength !== len) return null;
    // Options: none, or one COOKIE of a good length (RFC 7873 §5.2.2); anything else takes the full path.
    if (rdlength > 0) {
      const o = end + 11;
      cookieLength = (buf[o + 2]! << 8) | buf[o + 3]!;
      if (buf[o] !== 0 || buf[o + 1] !== 10 || rdlength !== 4 + cookieLength || (cookieLength !== 8 && (cookieLength < 16 || cookieLength > 40))) return null;
      cookieAt = o + 4;
    }
    scratch[k++] = buf[end + 3]!;
    scratch[k++] = buf[end + 4]!;
    // One octet for "has EDNS", "has a cookie" (answers leave room for ours) and the DO bit: cached apart.
    scratch[k++] = 0x01 | (cookieAt ? 0x02 : 0) | (buf[end + 7]! & 0x80);
  } else if (end !== len) return null;
  return { key: scratch.toString('latin1', 0, k), nameEnd, cookieAt, cookieLength };
}

/**
 * Two generations instead of a strict LRU: new entries go to `young`; when it holds half
 * the capacity it becomes `old` and the previous old generation is dropped whole. A hit in
 * `old` moves the entry back to `young`. Every operation is O(1) (deleting the oldest key
 * of one big Map is not: V8 skips over deleted slots when iterating).
 */
export class AnswerCache {
  private young = new Map<string, Entry>();
  private old = new Map<string, Entry>();
  private youngBytes = 0;

  constructor(
    private readonly index: ZoneIndex,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The last entry `answer` returned (for query statistics, counted on the entry, and response rate limiting). */
  lastEntry: Entry | null = null;

  /** The response to `query` from the cache, with its ID, RD/CD and question case, or null. */
  answer(query: Buffer, key: string, nameEnd: number): Buffer | null {
    let e = this.young.get(key);
    if (!e) {
      e = this.old.get(key);
      if (!e) return null;
      this.old.delete(key);
      if (this.fresh(e)) this.keep(key, e);
    }
    if (!this.fresh(e)) {
      this.young.delete(key);
      return null;
    }
    const out = Buffer.allocUnsafe(e.bytes.length);
    e.bytes.copy(out);
    out[0] = query[0]!;
    out[1] = query[1]!;
    out[2] = (out[2]! & 0xfe) | (query[2]! & 0x01);
    out[3] = (out[3]! & 0xef) | (query[3]! & 0x10);
    query.copy(out, 12, 12, nameEnd);
    this.lastEntry = e;
    return out;
  }

  put(key: string, bytes: Buffer, zone: Zone | null, until = 0, rrlClass = 0, rrlName = 0): void {
    if (bytes.length > MAX_ENTRY) return;
    this.keep(key, { key, bytes, zone, zoneGen: zone ? zone.gen : 0, setGen: this.index.setGen, until, hits: 0, period: -1, rrlClass, rrlName });
  }

  /** Whether the entry was made from the zone data that is current now (and its signatures still are). */
  private fresh(e: Entry): boolean {
    return e.setGen === this.index.setGen && (e.zone === null || e.zone.gen === e.zoneGen) && (e.until === 0 || Date.now() < e.until);
  }

  private keep(key: string, e: Entry): void {
    if (this.youngBytes >= this.capacity / 2) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
    this.young.set(key, e);
    // A replaced key is counted twice until the next turn; that only makes turns earlier.
    this.youngBytes += e.bytes.length + key.length;
  }
}
