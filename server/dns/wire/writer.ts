/**
 * Writes one DNS message into a buffer: header, question, resource records, with name
 * compression (RFC 1035 §4.1.4) for owner names and for the names inside the rdata of the
 * well-known types that allow it (RFC 3597 §4: NS, CNAME, PTR, MX, SOA; not SRV, RFC 2782).
 * `mark()`/`rollback()` let callers drop whole RRsets that do not fit (RFC 2181 §9).
 */
import packet from 'dns-packet';
import { CLASS_IN, T, type RRset, type SoaData } from '../index/rrset';

/** The largest DNS message (TCP framing, RFC 1035 §4.2.2). */
export const MAX_MESSAGE = 65535;

const HEADER = 12;
const POINTER_LIMIT = 0x3fff;
/** Room past the capacity for the one record that crosses it (names ≤ 255, rdata ≤ ~4.2 kB here). */
const SLACK = 8192;

/** Parses one presentation-form label (`\DDD` and `\X` escapes, RFC 1035 §5.1) into bytes. */
export function labelBytes(label: string): Buffer {
  if (!label.includes('\\')) return Buffer.from(label, 'latin1');
  const out: number[] = [];
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c !== 0x5c) out.push(c & 0xff);
    else if (/^[0-9]{3}$/.test(label.slice(i + 1, i + 4))) {
      out.push(Number(label.slice(i + 1, i + 4)) & 0xff);
      i += 3;
    } else out.push(label.charCodeAt(++i) & 0xff);
  }
  return Buffer.from(out);
}

/**
 * One work buffer shared by every writer: messages are built synchronously and copied out
 * by `finish()`, so at most one is in progress at a time and none allocates 72 kB.
 */
const shared = Buffer.allocUnsafe(MAX_MESSAGE + SLACK);

export interface WriterOptions {
  /** A buffer of its own (MAX_MESSAGE + 8 kB) instead of the shared one, for work beside a message. */
  buffer?: Buffer;
  /** false: names are written whole, as DNSSEC's canonical form needs (RFC 4034 §6.2). */
  compress?: boolean;
}

/** A work buffer for a writer used beside the shared one (canonical forms for signing). */
export const newWorkBuffer = (): Buffer => Buffer.allocUnsafe(MAX_MESSAGE + SLACK);

export class MessageWriter {
  readonly buf: Buffer;
  offset = HEADER;
  private readonly names = new Map<string, number>();
  private readonly compression: boolean;

  /**
   * `capacity`: the size the message must not exceed (UDP payload limit or 65535).
   * A new writer takes over the shared buffer (unless given its own): finish the previous message first.
   */
  constructor(
    readonly capacity = MAX_MESSAGE,
    options: WriterOptions = {},
  ) {
    if (capacity > MAX_MESSAGE) throw new RangeError('a DNS message is at most 65535 octets');
    this.buf = options.buffer ?? shared;
    this.compression = options.compress ?? true;
    this.buf.fill(0, 0, HEADER);
  }

  header(id: number, flags: number): void {
    this.buf.writeUInt16BE(id, 0);
    this.buf.writeUInt16BE(flags, 2);
  }

  /** Sets QDCOUNT, ANCOUNT, NSCOUNT, ARCOUNT. */
  counts(qd: number, an: number, ns: number, ar: number): void {
    this.buf.writeUInt16BE(qd, 4);
    this.buf.writeUInt16BE(an, 6);
    this.buf.writeUInt16BE(ns, 8);
    this.buf.writeUInt16BE(ar, 10);
  }

  /**
   * Copies the question from the query as it came (so the answer echoes the client's
   * case, RFC 1035 §7.1 and the 0x20 practice), and registers its suffixes for compression.
   */
  rawQuestion(query: Uint8Array, start: number, end: number, labels: string[]): void {
    this.buf.set(query.subarray(start, end), this.offset);
    let p = start;
    for (let i = 0; i < labels.length; i++) {
      this.remember(labels.slice(i).join('.'), this.offset + (p - start));
      p += query[p]! + 1;
    }
    this.offset += end - start;
  }

  /** Writes a question entry (used for NOTIFY and requests the server itself makes). */
  question(name: string, type: number, cls = CLASS_IN): void {
    this.name(name);
    this.u16(type);
    this.u16(cls);
  }

  u8(v: number): void {
    this.buf[this.offset++] = v;
  }

  u16(v: number): void {
    this.buf.writeUInt16BE(v, this.offset);
    this.offset += 2;
  }

  u32(v: number): void {
    this.buf.writeUInt32BE(v >>> 0, this.offset);
    this.offset += 4;
  }

  private remember(suffix: string, pos: number): void {
    if (pos <= POINTER_LIMIT && !this.names.has(suffix)) this.names.set(suffix, pos);
  }

  /** Writes an absolute name (lower case, no trailing dot, '' for the root). */
  name(name: string, compress = true): void {
    compress &&= this.compression;
    let rest = name;
    while (rest !== '') {
      const known = compress ? this.names.get(rest) : undefined;
      if (known !== undefined) {
        this.u16(0xc000 | known);
        return;
      }
      if (compress) this.remember(rest, this.offset);
      const dot = rest.indexOf('.');
      const label = labelBytes(dot < 0 ? rest : rest.slice(0, dot));
      this.buf[this.offset] = label.length;
      label.copy(this.buf, this.offset + 1);
      this.offset += label.length + 1;
      rest = dot < 0 ? '' : rest.slice(dot + 1);
    }
    this.u8(0);
  }

  /** Writes every record of an RRset; throws RangeError once past the capacity. */
  rrset(set: RRset): void {
    for (const data of set.data) this.rr(set.name, set.type, set.ttl, data);
  }

  /** Writes one record; throws RangeError once past the capacity (the caller rolls back). */
  rr(name: string, type: number, ttl: number, data: unknown): void {
    this.name(name);
    this.u16(type);
    this.u16(CLASS_IN);
    this.u32(ttl);
    const lengthAt = this.offset;
    this.offset += 2;
    this.rdata(type, data);
    this.buf.writeUInt16BE(this.offset - lengthAt - 2, lengthAt);
    if (this.offset > this.capacity) throw new RangeError('message full');
  }

  /** The EDNS(0) OPT pseudo-RR (RFC 6891 §6.1.2) with our UDP payload size. */
  opt(payload: number, extendedRcode = 0, dnssecOk = false, options?: Uint8Array): void {
    this.u8(0);
    this.u16(T.OPT);
    this.u16(payload);
    this.u8(extendedRcode);
    this.u8(0);
    this.u16(dnssecOk ? 0x8000 : 0);
    this.u16(options?.length ?? 0);
    if (options) {
      this.buf.set(options, this.offset);
      this.offset += options.length;
    }
  }

  /** Writes the rdata of one record (without its length) at the current offset. */
  rdata(type: number, data: unknown): void {
    // DNSSEC records arrive as finished rdata, never compressed (RFC 4034 §3.1.7, §4.1.1).
    if (data instanceof Uint8Array) {
      this.buf.set(data, this.offset);
      this.offset += data.length;
      return;
    }
    switch (type) {
      case T.NS:
      case T.CNAME:
      case T.PTR:
        this.name(data as string);
        return;
      case T.MX: {
        const mx = data as { preference: number; exchange: string };
        this.u16(mx.preference);
        this.name(mx.exchange);
        return;
      }
      case T.SOA: {
        const soa = data as SoaData;
        this.name(soa.mname);
        this.name(soa.rname);
        for (const v of [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum]) this.u32(v);
        return;
      }
      case T.SRV: {
        const srv = data as { priority: number; weight: number; port: number; target: string };
        this.u16(srv.priority);
        this.u16(srv.weight);
        this.u16(srv.port);
        this.name(srv.target, false);
        return;
      }
      case T.TXT:
        for (const chunk of data as Uint8Array[]) {
          this.u8(chunk.length);
          this.buf.set(chunk, this.offset);
          this.offset += chunk.length;
        }
        return;
      default: {
        // A, AAAA, CAA and anything else dns-packet knows: its codec writes rdlength + rdata.
        const codec = codecs.record(typeName(type));
        codec.encode(data, this.buf, this.offset - 2);
        this.offset += codec.encode.bytes - 2;
      }
    }
  }

  mark(): number {
    return this.offset;
  }

  /** Forgets everything written after `mark`, including compression targets. */
  rollback(mark: number): void {
    this.offset = mark;
    for (const [k, pos] of this.names) if (pos >= mark) this.names.delete(k);
  }

  /** A copy of the finished message. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.offset));
  }
}

/** dns-packet's per-type codecs, which its type declarations leave out. */
const codecs = packet as unknown as { record(type: string): { encode: ((d: unknown, b: Buffer, o: number) => Buffer) & { bytes: number } } };
const TYPE_NAMES: Record<number, string> = { 1: 'A', 28: 'AAAA', 257: 'CAA' };
const typeName = (code: number): string => TYPE_NAMES[code] ?? 'UNKNOWN';
