/**
 * The DNS index's start-up snapshot: each zone's served records as the last start read
 * them from the store, in a file beside the database (DATA_DIR/zone-index.snapshot), so the next
 * start builds the zones that have not changed since from the file instead of the store.
 *
 * A zone is taken from the file only when all of these hold, else it is read from the store:
 * - the file was written by this format and the store is at the same schema version (a migration
 *   may rewrite records without the triggers below seeing it);
 * - the zone's id and name are the same;
 * - its content tag is the same. The store makes a new random tag at every write of a zone's
 *   records, in the same transaction (migration 0021), and the start reads the tags before any
 *   record: so the records written under a tag are the ones read after it, and an unchanged tag
 *   means unchanged records, whoever wrote them (another node, the CLI, a restored backup);
 * - its block reads back whole: its length and CRC-32 as the directory gives them.
 * The file holds records, not the index's built form: a zone from it is built by the same code,
 * from the same rows, in the same order as a zone read from the store, so it answers the same.
 *
 * Layout: MAGIC, format (u32), schema version (u16 length, text); the zones' blocks; the directory
 * (per zone: id f64, name, tag, offset f64, length f64, CRC u32, records u32); then the directory's
 * offset (f64), length (u32) and CRC (u32), and MAGIC again. A block is groups, one per name, in
 * the order the store gave them: length u32 (of the whole group), name (u16 length, UTF-8), row
 * count u32, and per row: type (u8 length, ASCII), TTL u32, content (u32 length, UTF-8).
 * The file is written beside itself and renamed over the old one once whole (and synced), so a
 * crash leaves the old file or the new one, never half of one. It is the server's own (0600, in
 * the 0700 data directory); it is checked all the same, and any fault only means a read from the store.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import zlib from 'node:zlib';
import type { ServedRecord } from '../../store/types';
import { writeText } from './zone-names';

/** The file's name in DATA_DIR. */
export const SNAPSHOT_FILE = 'zone-index.snapshot';
const MAGIC = Buffer.from('zonedeck-index1\n', 'latin1');
/** Bumped whenever what a zone is built from changes (the rows `records.served` gives, this layout, or an entry's in zone-names.ts). */
export const SNAPSHOT_FORMAT = 2;
/** A group's kinds: the name's rows, or its entry of the compact index (zone-names.ts). */
const ROWS = 0;
const ENTRY = 1;
/** Read a block in windows of this many octets (a group longer than that is read whole). */
const WINDOW = 4 * 1024 * 1024;
/** Writes are gathered up to this many octets. */
const WRITE_BUFFER = 1024 * 1024;
const TRAILER = 8 + 4 + 4 + MAGIC.length;
/** The least a group takes: its length, an empty name, its kind, a count, and an entry of no set. */
const MIN_GROUP = 4 + 2 + 1 + 4 + 2;

/** Where the writer takes a name's entry of the compact index from (`Zone`). */
export interface EntrySource {
  /** The entry's length when it may be filed as it is, else -1 (its rows are filed). */
  fileable(rel: string): number;
  copyEntry(rel: string, to: Buffer, at: number, n: number): void;
}

export interface SnapshotEntry {
  id: number;
  name: string;
  tag: string;
  offset: number;
  length: number;
  crc: number;
  records: number;
}

/** Why a snapshot file was not used (logged), or null when it was read. */
export type SnapshotFault = string;
/** The reason given when there is no file at all: a first start, not a fault. */
export const NO_SNAPSHOT: SnapshotFault = 'no snapshot yet';

/** Reads `n` octets at `position`, all of them or an error (into `into` when it is big enough). */
function readFully(fd: number, n: number, position: number, into?: Buffer): Buffer {
  const buf = into && into.length >= n ? into.subarray(0, n) : Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const r = fs.readSync(fd, buf, got, n - got, position + got);
    if (r === 0) throw new Error('the snapshot file ends early');
    got += r;
  }
  return buf;
}

/**
 * UTF-8 text of a buffer's octets: Buffer's own `utf8Slice` where it has it (every Node this runs
 * on; `toString` checks its arguments and looks up the encoding first, per call, and a start reads
 * two texts a record), else `toString`.
 */
type Sliced = Buffer & { utf8Slice(start: number, end: number): string };
const hasUtf8Slice = typeof (Buffer.prototype as Partial<Sliced>).utf8Slice === 'function';

/** Fills `buf` with the octets at `position`, on the thread pool. */
async function readAsync(fd: number, buf: Buffer, position: number): Promise<Buffer> {
  for (let got = 0; got < buf.length;) {
    const r = await new Promise<number>((resolve, reject) => fs.read(fd, buf, got, buf.length - got, position + got, (err, n) => (err ? reject(err) : resolve(n))));
    if (r === 0) throw new Error('the snapshot file ends early');
    got += r;
  }
  return buf;
}

/** A cursor over a buffer that throws on reading past its end (a damaged file, never a crash). */
class Cursor {
  constructor(
    readonly buf: Buffer,
    public at = 0,
  ) {}
  need(n: number): void {
    if (this.at + n > this.buf.length) throw new Error('the snapshot file is damaged (a field runs past its end)');
  }
  u8(): number {
    this.need(1);
    return this.buf[this.at++]!;
  }
  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleBE(this.at);
    this.at += 8;
    if (!Number.isSafeInteger(v) || v < 0) throw new Error('the snapshot file is damaged (a bad number)');
    return v;
  }
  text(n: number, encoding: 'utf8' | 'latin1'): string {
    this.need(n);
    const s = encoding === 'utf8' && hasUtf8Slice ? (this.buf as Sliced).utf8Slice(this.at, this.at + n) : this.buf.toString(encoding, this.at, this.at + n);
    this.at += n;
    return s;
  }
}

export class SnapshotReader {
  private constructor(
    private readonly fd: number,
    private readonly entries: Map<number, SnapshotEntry>,
  ) {}

  /**
   * Opens the snapshot at `path` written at `schema`: the reader, or the reason it cannot be used
   * (no file is a reason too).
   */
  static open(path: string, schema: string): SnapshotReader | SnapshotFault {
    let fd: number;
    try {
      fd = fs.openSync(path, 'r');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? NO_SNAPSHOT : `the snapshot cannot be opened: ${(e as Error).message}`;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const head = new Cursor(readFully(fd, Math.min(size, MAGIC.length + 4 + 2 + 1024), 0));
      if (size < MAGIC.length + 6 + TRAILER || !head.buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a snapshot file');
      head.at = MAGIC.length;
      const format = head.u32();
      if (format !== SNAPSHOT_FORMAT) throw new Error(`written by another version (format ${format}, this one reads ${SNAPSHOT_FORMAT})`);
      const written = head.text(head.u16(), 'latin1');
      if (written !== schema) throw new Error(`written at schema ${written}, the store is at ${schema}`);
      const blocksFrom = head.at;
      const tail = new Cursor(readFully(fd, TRAILER, size - TRAILER));
      const dirOffset = tail.f64();
      const dirLength = tail.u32();
      const dirCrc = tail.u32();
      if (!tail.buf.subarray(tail.at).equals(MAGIC) || dirOffset < blocksFrom || dirOffset + dirLength !== size - TRAILER) throw new Error('the snapshot file is incomplete');
      const dir = new Cursor(readFully(fd, dirLength, dirOffset));
      if (zlib.crc32(dir.buf) !== dirCrc) throw new Error('the snapshot directory is damaged');
      const entries = new Map<number, SnapshotEntry>();
      for (let n = dir.u32(); n > 0; n--) {
        const e: SnapshotEntry = { id: dir.f64(), name: dir.text(dir.u16(), 'utf8'), tag: dir.text(dir.u8(), 'latin1'), offset: dir.f64(), length: dir.f64(), crc: dir.u32(), records: dir.u32() };
        if (e.offset < blocksFrom || e.offset + e.length > dirOffset) throw new Error('the snapshot directory is damaged');
        entries.set(e.id, e);
      }
      return new SnapshotReader(fd, entries);
    } catch (e) {
      fs.closeSync(fd);
      return `the snapshot is not used: ${(e as Error).message}`;
    }
  }

  /** The zone's entry when the file holds it as the store has it now (same id, name and tag). */
  find(id: number, name: string, tag: string | undefined): SnapshotEntry | undefined {
    const e = this.entries.get(id);
    return e && tag !== undefined && e.name === name && e.tag === tag ? e : undefined;
  }

  /**
   * Hands on the zone's names in the file's order — each with its rows, or with its entry of the
   * index (`buf` from `start` to `end`, lent) — reading a window at a time and awaiting `pause`
   * between windows. Throws when the block is damaged (its CRC, its count of records or its
   * shape), possibly after some names were handed on: the caller builds a zone apart and keeps it
   * only when this resolves, and checks each entry it is handed.
   */
  async read(
    e: SnapshotEntry,
    onRows: (rel: string, rows: readonly ServedRecord[]) => void,
    onEntry: (rel: string, buf: Buffer, start: number, end: number) => void,
    pause: () => Promise<void>,
  ): Promise<void> {
    const damaged = () => new Error(`the snapshot block of ${e.name} is damaged`);
    let crc = 0;
    let at = e.offset;
    let records = 0;
    const lent: ServedRecord[][] = [];
    const end = e.offset + e.length;
    while (at < end) {
      // One window's buffer serves every read: what is handed on is copied (entries) or decoded (rows) at once.
      let buf = readFully(this.fd, Math.min(WINDOW, end - at), at, (this.window ??= Buffer.allocUnsafe(WINDOW)));
      if (buf.length < 4) throw damaged();
      // A group longer than a window is read whole.
      const first = buf.readUInt32BE(0);
      if (first > buf.length) {
        if (at + first > end) throw damaged();
        buf = readFully(this.fd, first, at);
      }
      const c = new Cursor(buf);
      while (c.at + 4 <= buf.length) {
        const len = buf.readUInt32BE(c.at);
        if (len < MIN_GROUP) throw damaged();
        if (c.at + len > buf.length) break;
        const groupEnd = c.at + len;
        c.at += 4;
        const rel = c.text(c.u16(), 'utf8');
        const kind = c.u8();
        const count = c.u32();
        if (kind === ENTRY) {
          if (count === 0 || count > len) throw damaged();
          onEntry(rel, buf, c.at, groupEnd);
          c.at = groupEnd;
        } else {
          // A row takes at least 10 octets: a damaged count never makes a big array.
          if (kind !== ROWS || count === 0 || count * 10 > len) throw damaged();
          // The rows are lent to `onRows` (which keeps none of them): one array of each length, and its objects, serve every name.
          const rows = (lent[count] ??= Array.from({ length: count }, () => ({ id: 0, name: '', record_type: '', ttl: 0, content: '' })));
          for (let i = 0; i < count; i++) {
            const row = rows[i]!;
            row.name = rel;
            row.record_type = this.type(c);
            row.ttl = c.u32();
            row.content = c.text(c.u32(), 'utf8');
          }
          if (c.at !== groupEnd) throw damaged();
          onRows(rel, rows);
        }
        records += count;
      }
      crc = zlib.crc32(buf.subarray(0, c.at), crc);
      at += c.at;
      if (at < end) await pause();
    }
    if (crc !== e.crc || records !== e.records) throw damaged();
  }

  private window: Buffer | undefined;

  /** Type names by their octets (up to 5, and the length, as one number): each read once, not once a row. */
  private readonly types = new Map<number, string>();

  /** A row's type name (u8 length, ASCII). */
  private type(c: Cursor): string {
    const n = c.u8();
    if (n > 5) return c.text(n, 'latin1');
    c.need(n);
    let key = n;
    for (let i = 0, mul = 256; i < n; i++, mul *= 256) key += c.buf[c.at + i]! * mul;
    let name = this.types.get(key);
    if (name === undefined) this.types.set(key, (name = c.buf.toString('latin1', c.at, c.at + n)));
    c.at += n;
    return name;
  }

  /** Copies zones' blocks, unread, into a new snapshot, on the thread pool (this thread answers questions). */
  async copyTo(entries: readonly SnapshotEntry[], writer: SnapshotWriter): Promise<void> {
    const window = Buffer.allocUnsafe(WINDOW);
    for (const e of entries) await writer.copyBlock(e, (offset, n) => readAsync(this.fd, window.subarray(0, n), offset));
  }

  /**
   * Closes the file on the thread pool: once a new snapshot was renamed over it, this is its last
   * reference, and the kernel frees its blocks in the close (41-46 ms for 211 MB on ext4 here,
   * which would hold every answer of this thread up).
   */
  close(): void {
    fs.close(this.fd, () => {});
  }
}

/** Writes a new snapshot beside the old one; `finish` puts it in the old one's place. */
export class SnapshotWriter {
  private readonly entries: SnapshotEntry[] = [];
  private buf = Buffer.allocUnsafe(WRITE_BUFFER);
  private used = 0;
  /** The file position of `buf[0]`. */
  private pos = 0;
  /** The zone being written: its entry, its CRC so far (of the octets flushed), and where it starts. */
  private zone: SnapshotEntry | null = null;

  private constructor(
    private readonly path: string,
    private readonly tmp: string,
    private readonly fd: number,
  ) {}

  /** A new snapshot to be written at `path` (throws when the file cannot be made). */
  static create(path: string, schema: string): SnapshotWriter {
    removeLeftovers(path);
    const tmp = `${path}.${process.pid}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    const w = new SnapshotWriter(path, tmp, fd);
    const s = Buffer.from(schema, 'latin1');
    w.room(MAGIC.length + 6 + s.length);
    MAGIC.copy(w.buf, 0);
    w.buf.writeUInt32BE(SNAPSHOT_FORMAT, MAGIC.length);
    w.buf.writeUInt16BE(s.length, MAGIC.length + 4);
    s.copy(w.buf, MAGIC.length + 6);
    w.used = MAGIC.length + 6 + s.length;
    return w;
  }

  /** Starts a zone's block; false (nothing started) for a tag this format cannot hold. */
  begin(id: number, name: string, tag: string): boolean {
    if (this.zone) throw new Error('a zone is being written');
    if (tag.length === 0 || tag.length > 255 || !/^[\x21-\x7e]+$/.test(tag)) return false;
    this.zone = { id, name, tag, offset: this.pos + this.used, length: 0, crc: 0, records: 0 };
    return true;
  }

  /**
   * One name of the zone, as it was built from all its served rows: its entry of the index when
   * `zone` may file it as it is (most names), else the rows, in the order they were built in.
   */
  name(rel: string, rows: readonly ServedRecord[], zone: EntrySource): void {
    const z = this.zone;
    if (!z || rows.length === 0) return;
    const entry = zone.fileable(rel);
    let most = 4 + 2 + rel.length * 3 + 1 + 4;
    if (entry >= 0) most += entry;
    else for (const r of rows) most += 1 + r.record_type.length + 4 + 4 + r.content.length * 3;
    this.room(most);
    const buf = this.buf;
    const start = this.used;
    let p = start + 4;
    const n = writeText(buf, p + 2, rel);
    buf[p] = n >> 8;
    buf[p + 1] = n & 0xff;
    p += 2 + n;
    buf[p] = entry >= 0 ? ENTRY : ROWS;
    buf.writeUInt32BE(rows.length, p + 1);
    p += 5;
    if (entry >= 0) {
      zone.copyEntry(rel, buf, p, entry);
      p += entry;
    } else {
      for (const r of rows) {
        buf[p] = buf.write(r.record_type, p + 1, 'latin1');
        p += 1 + buf[p]!;
        buf.writeUInt32BE(r.ttl, p);
        const c = buf.write(r.content, p + 8, 'utf8');
        buf.writeUInt32BE(c, p + 4);
        p += 8 + c;
      }
    }
    const len = p - start;
    buf[start] = len >>> 24;
    buf[start + 1] = (len >>> 16) & 0xff;
    buf[start + 2] = (len >>> 8) & 0xff;
    buf[start + 3] = len & 0xff;
    this.used = p;
    z.records += rows.length;
  }

  /** Ends the zone's block: it goes in the directory. */
  end(): void {
    const z = this.zone;
    if (!z) return;
    this.sum(z);
    z.length = this.pos + this.used - z.offset;
    this.zone = null;
    // A zone with no served record too: a start finds it here, and need not read it or write a new file.
    this.entries.push(z);
  }

  /** Forgets the zone being written (its load failed): the next one is written where it began. */
  drop(): void {
    const z = this.zone;
    if (!z) return;
    this.zone = null;
    if (z.offset >= this.pos) this.used = z.offset - this.pos;
    else {
      this.used = 0;
      this.pos = z.offset;
    }
  }

  /** Copies a zone's block from the old snapshot (`read`: fills a buffer with octets at an offset of the old file). */
  async copyBlock(e: SnapshotEntry, read: (offset: number, n: number) => Promise<Buffer>): Promise<void> {
    if (this.zone) throw new Error('a zone is being written');
    this.flush();
    const offset = this.pos;
    for (let done = 0; done < e.length;) {
      const n = Math.min(WINDOW, e.length - done);
      const data = await read(e.offset + done, n);
      for (let w = 0; w < n;) w += await new Promise<number>((resolve, reject) => fs.write(this.fd, data, w, n - w, this.pos + w, (err, k) => (err ? reject(err) : resolve(k))));
      this.pos += n;
      done += n;
    }
    this.entries.push({ ...e, offset });
  }

  /** Writes the directory, and puts the file in the old one's place once it is on disk. */
  async finish(): Promise<void> {
    this.flush();
    let most = 4;
    for (const e of this.entries) most += 8 + 2 + e.name.length * 3 + 1 + e.tag.length + 8 + 8 + 4 + 4;
    const dir = Buffer.allocUnsafe(most);
    let p = dir.writeUInt32BE(this.entries.length, 0);
    for (const e of this.entries) {
      p = dir.writeDoubleBE(e.id, p);
      const n = dir.write(e.name, p + 2, 'utf8');
      dir.writeUInt16BE(n, p);
      p += 2 + n;
      dir[p] = dir.write(e.tag, p + 1, 'latin1');
      p += 1 + e.tag.length;
      p = dir.writeDoubleBE(e.offset, p);
      p = dir.writeDoubleBE(e.length, p);
      p = dir.writeUInt32BE(e.crc, p);
      p = dir.writeUInt32BE(e.records, p);
    }
    const trailer = Buffer.allocUnsafe(TRAILER);
    trailer.writeDoubleBE(this.pos, 0);
    trailer.writeUInt32BE(p, 8);
    trailer.writeUInt32BE(zlib.crc32(dir.subarray(0, p)), 12);
    MAGIC.copy(trailer, 16);
    this.writeAt(dir.subarray(0, p), this.pos);
    this.writeAt(trailer, this.pos + p);
    fs.ftruncateSync(this.fd, this.pos + p + TRAILER);
    // On the thread pool: syncing a big file may take a while, and this thread answers questions.
    await new Promise<void>((resolve, reject) => fs.fsync(this.fd, (err) => (err ? reject(err) : resolve())));
    fs.closeSync(this.fd);
    // On the thread pool too: a replaced file no reader holds open is freed in the rename.
    await fs.promises.rename(this.tmp, this.path);
  }

  /** Leaves the old snapshot as it was. */
  abort(): void {
    try {
      fs.closeSync(this.fd);
    } catch {}
    fs.rmSync(this.tmp, { force: true });
  }

  get zones(): number {
    return this.entries.length;
  }

  /** Room for `n` more octets in the buffer (flushing it, or growing it for one long group). */
  private room(n: number): void {
    if (this.used + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  /** Adds the zone's octets in the buffer to its CRC. */
  private sum(z: SnapshotEntry): void {
    const from = Math.max(0, z.offset - this.pos);
    if (this.used > from) z.crc = zlib.crc32(this.buf.subarray(from, this.used), z.crc);
  }

  private flush(): void {
    if (this.used === 0) return;
    if (this.zone) this.sum(this.zone);
    this.writeAt(this.buf.subarray(0, this.used), this.pos);
    this.pos += this.used;
    this.used = 0;
    if (this.buf.length > WRITE_BUFFER) this.buf = Buffer.allocUnsafe(WRITE_BUFFER);
  }

  private writeAt(data: Buffer, position: number): void {
    for (let done = 0; done < data.length;) done += fs.writeSync(this.fd, data, done, data.length - done, position + done);
  }
}

/** Files a process that stopped while writing a snapshot left beside it (`<path>.<pid>.tmp`, the pid gone). */
function removeLeftovers(path: string): void {
  const dir = nodePath.dirname(path);
  const base = `${nodePath.basename(path)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = name.startsWith(base) ? /^(\d{1,10})\.tmp$/.exec(name.slice(base.length)) : null;
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    fs.rmSync(nodePath.join(dir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user has that pid.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
