/**
 * The names of one zone and their RRsets, kept compactly: a name's RRsets from record
 * rows are one entry in a byte arena per zone — for each RRset its type, TTL and records, each
 * record either its content text (types whose wire shape is text: A, AAAA, names, MX, SRV, TXT)
 * or its finished rdata — and the map from the name, relative to the zone, holds the entry's
 * offset. No object per record or per RRset is kept; a lookup decodes the entry into a `Node`
 * of RRsets in dns-packet's shape, exactly what the rows would have given, and the answer cache
 * keeps the encoded answers downstream. Names whose sets the zone itself makes or changes (the
 * apex: SOA, DNSKEY, CDS; an ALIAS owner: its addresses) hold a `Node` of objects instead, so
 * those objects stay the same while they do. While the zone is signed, decoded nodes are kept, so
 * an RRset stays one object and its signature stays cached (dnssec/sign.ts).
 *
 * The arena is chunks of at most 1 MiB, an entry always within one. A change writes the name's
 * new entry at the end of the last chunk (O(change)): that chunk grows by doubling up to 1 MiB,
 * then a new one starts, so no change copies more than 1 MiB whatever the zone's size. Once the
 * replaced entries are more than half of the arena, it is copied without them (paid for by the
 * changes that replaced them).
 * The API reads like a `Map<string, Node>` by absolute owner name, in insertion order.
 */
import { APEX } from '../../core/domain-name';
import { RECORD_TYPE_BY_CODE, RECORD_TYPE_BY_NAME, type RecordType } from '../../core/record-types';
import type { ServedRecord } from '../../store/types';
import { T, type RRset } from './rrset';

/**
 * The RRsets at one owner name, by type. Most names hold a single RRset, so the first is kept in
 * two fields and only a second type makes a Map. It reads like a Map, in insertion order.
 */
export class Node {
  private firstType = -1;
  private first: RRset | undefined;
  private more: Map<number, RRset> | null = null;

  get size(): number {
    return (this.first ? 1 : 0) + (this.more?.size ?? 0);
  }

  get(type: number): RRset | undefined {
    return this.firstType === type ? this.first : this.more?.get(type);
  }

  has(type: number): boolean {
    return this.get(type) !== undefined;
  }

  set(type: number, set: RRset): this {
    if (this.first === undefined || this.firstType === type) {
      if (this.first === undefined && this.more?.has(type)) this.more.set(type, set);
      else {
        this.firstType = type;
        this.first = set;
      }
    } else (this.more ??= new Map()).set(type, set);
    return this;
  }

  delete(type: number): boolean {
    if (this.first !== undefined && this.firstType === type) {
      // The next in insertion order takes the first place.
      const next = this.more?.entries().next();
      if (next && !next.done) {
        [this.firstType, this.first] = next.value;
        this.more!.delete(this.firstType);
        if (this.more!.size === 0) this.more = null;
      } else {
        this.firstType = -1;
        this.first = undefined;
      }
      return true;
    }
    const gone = this.more?.delete(type) ?? false;
    if (this.more?.size === 0) this.more = null;
    return gone;
  }

  *keys(): IterableIterator<number> {
    if (this.first) yield this.firstType;
    if (this.more) yield* this.more.keys();
  }

  *values(): IterableIterator<RRset> {
    if (this.first) yield this.first;
    if (this.more) yield* this.more.values();
  }

  *entries(): IterableIterator<[number, RRset]> {
    if (this.first) yield [this.firstType, this.first];
    if (this.more) yield* this.more.entries();
  }

  [Symbol.iterator](): IterableIterator<[number, RRset]> {
    return this.entries();
  }
}

/** How a record is kept in an entry: its content text, read by `wireData` again; or its rdata bytes. */
const TEXT = 0;
const BYTES = 1;

/** By type code: whether its `wireData` is finished rdata (bytes) or a text-derived shape (decided once, from its example); -1 not yet. */
const kinds = new Int8Array(65536).fill(-1);
function kindOf(type: RecordType): number {
  let k = kinds[type.code]!;
  if (k < 0) {
    k = type.wireData(type.example) instanceof Uint8Array ? BYTES : TEXT;
    kinds[type.code] = k;
  }
  return k;
}

/** Writes text as UTF-8 at `at`, returning its length: short ASCII (most content) without a call into C++. */
export function writeText(buf: Buffer, at: number, text: string): number {
  const n = text.length;
  if (n > 32) return buf.write(text, at, 'utf8');
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return buf.write(text, at, 'utf8');
    buf[at + i] = c;
  }
  return n;
}

/** (A function at the module's level: `entryShape` runs once a name at a start, and makes no closure.) */
function notAnEntry(): Error {
  return new Error('not an entry of the index');
}

/**
 * Checks that the octets from `start` to `end` are one whole entry as `putRows` writes it (every
 * set of a registered type and its kind, every record within it) and says whether it holds an NS
 * set (a cut, which the zone keeps apart); throws otherwise. A DNAME's target the zone keeps apart
 * as its text, which an entry does not hold (its rdata is finished): an entry with a DNAME throws.
 */
export function entryShape(buf: Buffer, start: number, end: number): { hasNs: boolean } {
  if (start + 2 > end) throw notAnEntry();
  let hasNs = false;
  let p = start + 2;
  let sets = buf.readUInt16BE(start);
  if (sets === 0) throw notAnEntry();
  for (; sets > 0; sets--) {
    if (p + SET_HEADER > end) throw notAnEntry();
    const code = buf.readUInt16BE(p);
    const type = RECORD_TYPE_BY_CODE.get(code);
    if (!type || type.synthetic || code === T.DNAME || buf[p + 6] !== kindOf(type)) throw notAnEntry();
    let count = buf.readUInt16BE(p + 7);
    if (count === 0) throw notAnEntry();
    p += SET_HEADER;
    if (code === T.NS) hasNs = true;
    for (; count > 0; count--) {
      if (p + 2 > end) throw notAnEntry();
      p += 2 + buf.readUInt16BE(p);
    }
  }
  if (p !== end) throw notAnEntry();
  return { hasNs };
}

/** Writes an RRset's header in an entry: type, TTL, kind, count. */
function setHeader(buf: Buffer, at: number, code: number, ttl: number, kind: number, count: number): void {
  buf[at] = code >> 8;
  buf[at + 1] = code & 0xff;
  buf[at + 2] = ttl >>> 24;
  buf[at + 3] = (ttl >>> 16) & 0xff;
  buf[at + 4] = (ttl >>> 8) & 0xff;
  buf[at + 5] = ttl & 0xff;
  buf[at + 6] = kind;
  buf[at + 7] = count >> 8;
  buf[at + 8] = count & 0xff;
}

/** What `putRows` learnt of the rows it stored (the zone keeps cuts and DNAMEs apart). */
export interface PutInfo {
  /** RRsets stored; 0: nothing to serve at the name. */
  sets: number;
  hasNs: boolean;
}

/** Octets of one entry's set header: type, TTL, kind, count. */
const SET_HEADER = 9;
/** An entry's place: chunk << CHUNK_BITS | offset, a small integer (under 2^30: at most 1,024 chunks, 1 GiB a zone). */
const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
const MAX_CHUNKS = 1 << (30 - CHUNK_BITS);

export class ZoneNames {
  /** By name relative to the zone (`@` the apex): an entry's place in the arena, or a node of objects. */
  private readonly map = new Map<string, number | Node>();
  private chunks: Buffer[];
  /** Octets used of the last chunk. */
  private used = 0;
  /** Octets written in all chunks. */
  private total = 0;
  /** Octets of the arena no name points at any more. */
  private dead = 0;
  /** Decoded nodes kept while the zone is signed (their RRset objects key the signature cache). */
  private kept: Map<string, Node> | null = null;
  private readonly suffix: number;

  constructor(
    readonly zone: string,
    capacity = 256,
  ) {
    this.chunks = [Buffer.allocUnsafe(Math.min(CHUNK, Math.max(64, capacity)))];
    this.suffix = zone.length + 1;
  }

  get size(): number {
    return this.map.size;
  }

  /** The name relative to the zone, or undefined when it lies outside. */
  rel(fqdn: string): string | undefined {
    const zl = this.zone.length;
    if (fqdn.length === zl) return fqdn === this.zone ? APEX : undefined;
    if (fqdn.length <= this.suffix || fqdn.charCodeAt(fqdn.length - this.suffix) !== 46 || !fqdn.endsWith(this.zone)) return undefined;
    return fqdn.slice(0, fqdn.length - this.suffix);
  }

  fqdn(rel: string): string {
    return rel === APEX ? this.zone : `${rel}.${this.zone}`;
  }

  has(fqdn: string): boolean {
    const rel = this.rel(fqdn);
    return rel !== undefined && this.map.has(rel);
  }

  hasRel(rel: string): boolean {
    return this.map.has(rel);
  }

  get(fqdn: string): Node | undefined {
    const rel = this.rel(fqdn);
    return rel === undefined ? undefined : this.at(rel, fqdn);
  }

  /** The node at a relative name (`fqdn` its absolute form, the RRsets' owner). */
  at(rel: string, fqdn = this.fqdn(rel)): Node | undefined {
    const v = this.map.get(rel);
    if (v === undefined || typeof v !== 'number') return v;
    if (this.kept) {
      let node = this.kept.get(rel);
      if (!node) this.kept.set(rel, (node = this.decode(v, fqdn)));
      return node;
    }
    return this.decode(v, fqdn);
  }

  *keys(): IterableIterator<string> {
    for (const rel of this.map.keys()) yield this.fqdn(rel);
  }

  *values(): IterableIterator<Node> {
    for (const rel of this.map.keys()) yield this.at(rel)!;
  }

  *entries(): IterableIterator<[string, Node]> {
    for (const rel of this.map.keys()) {
      const fqdn = this.fqdn(rel);
      yield [fqdn, this.at(rel, fqdn)!];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, Node]> {
    return this.entries();
  }

  /** Keeps decoded nodes (while the zone is signed), or stops keeping them. */
  keepDecoded(keep: boolean): void {
    if (keep) this.kept ??= new Map();
    else this.kept = null;
  }

  /** Puts a node of objects at a relative name. */
  setNode(rel: string, node: Node): void {
    this.release(rel);
    this.map.set(rel, node);
  }

  delete(rel: string): boolean {
    this.release(rel);
    return this.map.delete(rel);
  }

  /**
   * Stores the RRsets of `rows` (every row at the name; types outside the registry and ALIAS
   * skipped) as the name's entry, replacing what it held; nothing to store removes the name.
   * false (nothing done): rows too big for an entry (a record's text over 21,845 characters, or
   * 65,535 rows at a name), to be kept as a node of objects.
   */
  putRows(rel: string, rows: readonly ServedRecord[], info: PutInfo): boolean {
    info.sets = 0;
    info.hasNs = false;
    if (rows.length === 1) return this.putRow(rel, rows[0]!, info);
    if (rows.length > 0xffff) return false;
    // The distinct types in the order of their first row, as the rows would have made the node.
    let types: RecordType[] | undefined;
    let one: RecordType | undefined;
    /** Finished rdata of the rows of BYTES types, by row index (made here, so bad content fails the load as before). */
    let bytes: (Uint8Array | undefined)[] | undefined;
    let need = 2;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const type = RECORD_TYPE_BY_NAME.get(row.record_type);
      if (!type || type.synthetic) continue;
      if (one === undefined) one = type;
      else if (type !== one && !types?.includes(type)) (types ??= [one]).push(type);
      if (kindOf(type) === BYTES) {
        const data = type.wireData(row.content) as Uint8Array;
        (bytes ??= [])[i] = data;
        need += 2 + data.length;
      } else {
        if (row.content.length > 21845) return false;
        need += 2 + row.content.length * 3;
      }
    }
    if (one === undefined) {
      this.delete(rel);
      return true;
    }
    types ??= [one];
    need += types.length * SET_HEADER;
    const buf = this.room(rel, need);
    if (!buf) return false;
    const start = this.used;
    let p = start;
    buf[p] = types.length >> 8;
    buf[p + 1] = types.length & 0xff;
    p += 2;
    for (const type of types) {
      const kind = kindOf(type);
      const head = p;
      p += SET_HEADER;
      let ttl = Infinity;
      let count = 0;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (row.record_type !== type.type) continue;
        // RFC 2181 §5.2: one TTL per RRset; the services keep them equal, take the least if not.
        if (row.ttl < ttl) ttl = row.ttl;
        count++;
        let n: number;
        if (kind === TEXT) n = writeText(buf, p + 2, row.content);
        else {
          const data = bytes![i]!;
          buf.set(data, p + 2);
          n = data.length;
        }
        buf[p] = n >> 8;
        buf[p + 1] = n & 0xff;
        p += 2 + n;
      }
      setHeader(buf, head, type.code, ttl, kind, count);
      if (type.code === T.NS) info.hasNs = true;
    }
    info.sets = types.length;
    this.written(rel, start, p);
    return true;
  }

  /** `putRows` for the one row most names hold. */
  private putRow(rel: string, row: ServedRecord, info: PutInfo): boolean {
    const type = RECORD_TYPE_BY_NAME.get(row.record_type);
    if (!type || type.synthetic) {
      this.delete(rel);
      return true;
    }
    const kind = kindOf(type);
    const content = row.content;
    let data: Uint8Array | undefined;
    let need: number;
    if (kind === BYTES) {
      data = type.wireData(content) as Uint8Array;
      need = 2 + SET_HEADER + 2 + data.length;
    } else {
      if (content.length > 21845) return false;
      need = 2 + SET_HEADER + 2 + content.length * 3;
    }
    const buf = this.room(rel, need);
    if (!buf) return false;
    const p = this.used;
    buf[p] = 0;
    buf[p + 1] = 1;
    setHeader(buf, p + 2, type.code, row.ttl, kind, 1);
    let n: number;
    if (data) {
      buf.set(data, p + 13);
      n = data.length;
    } else n = writeText(buf, p + 13, content);
    buf[p + 11] = n >> 8;
    buf[p + 12] = n & 0xff;
    info.sets = 1;
    info.hasNs = type.code === T.NS;
    this.written(rel, p, p + 13 + n);
    return true;
  }

  /**
   * The chunk to write the name's new entry of at most `need` octets in, at `used`, the old
   * entry released; undefined: too big for the arena (nothing changed but the old entry dropped).
   */
  private room(rel: string, need: number): Buffer | undefined {
    if (need > CHUNK) return undefined;
    this.release(rel);
    if (!this.reserve(need)) {
      this.map.delete(rel);
      return undefined;
    }
    return this.chunks[this.chunks.length - 1]!;
  }

  /** The name's entry is written from `start` to `end` of the last chunk. */
  private written(rel: string, start: number, end: number): void {
    this.total += end - start;
    this.used = end;
    this.map.set(rel, ((this.chunks.length - 1) << CHUNK_BITS) | start);
  }

  /** The name's entry in the arena (lent: valid until the next change), or undefined for a name of objects or none. */
  entry(rel: string): Buffer | undefined {
    const v = this.map.get(rel);
    if (typeof v !== 'number') return undefined;
    const at = v & (CHUNK - 1);
    return this.chunks[v >> CHUNK_BITS]!.subarray(at, at + this.measure(v, false));
  }

  /**
   * The length of the name's entry when a start-up snapshot may file it as it is (it holds no
   * DNAME: `entryShape`), else -1 (no entry: a name of objects or none).
   */
  fileable(rel: string): number {
    const v = this.map.get(rel);
    if (typeof v !== 'number') return -1;
    const buf = this.chunks[v >> CHUNK_BITS]!;
    const at = v & (CHUNK - 1);
    let p = at + 2;
    for (let sets = (buf[at]! << 8) | buf[at + 1]!; sets > 0; sets--) {
      if (((buf[p]! << 8) | buf[p + 1]!) === T.DNAME) return -1;
      let count = (buf[p + 7]! << 8) | buf[p + 8]!;
      p += SET_HEADER;
      for (; count > 0; count--) p += 2 + ((buf[p]! << 8) | buf[p + 1]!);
    }
    return p - at;
  }

  /** Copies the name's entry, `n` octets long as `fileable` said, to `to` at `at`. */
  copyEntry(rel: string, to: Buffer, at: number, n: number): void {
    const v = this.map.get(rel) as number;
    const buf = this.chunks[v >> CHUNK_BITS]!;
    const from = v & (CHUNK - 1);
    if (n <= 64) for (let i = 0; i < n; i++) to[at + i] = buf[from + i]!;
    else buf.copy(to, at, from, from + n);
  }

  /** Stores an entry `entryShape` accepted as the name's, replacing what it held (the start-up snapshot's). */
  putEntry(rel: string, src: Buffer, start: number, end: number): void {
    const n = end - start;
    const buf = this.room(rel, n);
    if (!buf) throw new Error('an entry too big for the arena');
    const p = this.used;
    if (n <= 64) for (let i = 0; i < n; i++) buf[p + i] = src[start + i]!;
    else src.copy(buf, p, start, end);
    this.written(rel, p, p + n);
  }

  /** How many records the names hold. */
  recordCount(): number {
    let n = 0;
    for (const v of this.map.values()) {
      if (typeof v !== 'number') {
        for (const set of v.values()) n += set.data.length;
        continue;
      }
      n += this.measure(v, true);
    }
    return n;
  }

  /** Gives back the room the arena has past its end (after a load, when no more is coming soon). */
  trim(): void {
    if (this.dead > 0) this.compact(0, 1);
    else {
      const last = this.chunks.length - 1;
      if (this.chunks[last]!.length - this.used > 64) this.chunks[last] = Buffer.from(this.chunks[last]!.subarray(0, this.used));
    }
  }

  /** Octets the arena holds (its chunks' capacity). */
  get arenaBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.length;
    return n;
  }

  private decode(place: number, fqdn: string): Node {
    const buf = this.chunks[place >> CHUNK_BITS]!;
    const at = place & (CHUNK - 1);
    const node = new Node();
    let p = at + 2;
    for (let sets = buf.readUInt16BE(at); sets > 0; sets--) {
      const code = buf.readUInt16BE(p);
      const ttl = buf.readUInt32BE(p + 2);
      const kind = buf[p + 6];
      const count = buf.readUInt16BE(p + 7);
      p += SET_HEADER;
      const type = RECORD_TYPE_BY_CODE.get(code)!;
      const data: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const n = buf.readUInt16BE(p);
        p += 2;
        data[i] = kind === TEXT ? type.wireData(buf.toString('utf8', p, p + n)) : new Uint8Array(buf.subarray(p, p + n));
        p += n;
      }
      node.set(code, { name: fqdn, type: code, ttl, data });
    }
    return node;
  }

  /** The entry at `place`: its length in octets, or (`records`) how many records it holds. */
  private measure(place: number, records: boolean): number {
    const buf = this.chunks[place >> CHUNK_BITS]!;
    const at = place & (CHUNK - 1);
    let p = at + 2;
    let n = 0;
    for (let sets = buf.readUInt16BE(at); sets > 0; sets--) {
      const count = buf.readUInt16BE(p + 7);
      n += count;
      p += SET_HEADER;
      for (let i = 0; i < count; i++) p += 2 + buf.readUInt16BE(p);
    }
    return records ? n : p - at;
  }

  /** Forgets the name's entry (its octets become dead) and any decoded node kept for it. */
  private release(rel: string): void {
    this.kept?.delete(rel);
    const v = this.map.get(rel);
    if (typeof v === 'number') this.dead += this.measure(v, false);
  }

  /** Room for `need` octets at the end of the last chunk; false: the zone's arena is at its limit. */
  private reserve(need: number): boolean {
    const last = this.chunks.length - 1;
    const chunk = this.chunks[last]!;
    if (this.used + need <= chunk.length) return true;
    const live = this.total - this.dead;
    if (this.dead > live) {
      // Replaced entries are more than half: copy the live ones, with half again as room.
      this.compact(need, 1.5);
      return this.reserve(need);
    }
    if (this.used + need <= CHUNK) {
      const grown = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(chunk.length * 2, this.used + need)));
      chunk.copy(grown, 0, 0, this.used);
      this.chunks[last] = grown;
      return true;
    }
    if (this.chunks.length >= MAX_CHUNKS) return false;
    this.chunks.push(Buffer.allocUnsafe(Math.max(4096, need)));
    this.used = 0;
    return true;
  }

  /**
   * Copies the live entries, in map order, into new chunks sized for them times `room` (and
   * `need` octets more at the end).
   */
  private compact(need: number, room: number): void {
    let left = this.total - this.dead;
    const size = () => Math.min(CHUNK, Math.ceil(left * room) + need);
    const chunks = [Buffer.allocUnsafe(Math.max(64, size()))];
    let to = chunks[0]!;
    let p = 0;
    for (const [rel, v] of this.map) {
      if (typeof v !== 'number') continue;
      const n = this.measure(v, false);
      if (p + n > to.length) {
        chunks.push((to = Buffer.allocUnsafe(Math.max(n, size()))));
        p = 0;
      }
      const at = v & (CHUNK - 1);
      this.chunks[v >> CHUNK_BITS]!.copy(to, p, at, at + n);
      this.map.set(rel, ((chunks.length - 1) << CHUNK_BITS) | p);
      p += n;
      left -= n;
    }
    this.chunks = chunks;
    this.total -= this.dead;
    this.dead = 0;
    this.used = p;
  }
}
