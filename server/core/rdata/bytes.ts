/**
 * Octets in and out for rdata codecs, over plain Uint8Array so that the browser can use
 * them too (no Buffer). The reader never reads past the rdata it was given.
 */
import { RuleError } from '../errors';

export class ByteWriter {
  private buf = new Uint8Array(64);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v & 0xff;
  }

  u16(v: number): void {
    this.room(2);
    this.buf[this.length++] = (v >>> 8) & 0xff;
    this.buf[this.length++] = v & 0xff;
  }

  u32(v: number): void {
    this.u16(Math.floor(v / 0x10000) & 0xffff);
    this.u16(v & 0xffff);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Sets a u16 written earlier (a length in front of data written since). */
  patch16(at: number, v: number): void {
    this.buf[at] = (v >>> 8) & 0xff;
    this.buf[at + 1] = v & 0xff;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Where a compressed name may point: the whole message and the rdata's offset in it. */
export interface MessageContext {
  message: Uint8Array;
  offset: number;
}

export class ByteReader {
  pos = 0;

  constructor(
    readonly data: Uint8Array,
    readonly context?: MessageContext,
  ) {}

  get left(): number {
    return this.data.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (this.left < n) throw new RuleError(`rdata ends inside the ${what || 'data'}`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.data[this.pos++]!;
  }

  u16(what: string): number {
    this.need(2, what);
    const v = (this.data[this.pos]! << 8) | this.data[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    return this.u16(what) * 0x10000 + this.u16(what);
  }

  bytes(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  rest(): Uint8Array {
    return this.bytes(this.left, 'data');
  }
}
