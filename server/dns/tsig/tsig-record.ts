/**
 * The TSIG resource record (RFC 8945 §4.2) on the wire: finding it at the end of a message,
 * reading its fields, and writing it; the octets a MAC covers (§4.3: the message as it was
 * before the TSIG RR, the TSIG variables, the timers). The MAC itself is tsig.ts's business.
 */
export const T_TSIG = 250;
export const CLASS_ANY = 255;

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

export const u16 = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const u48 = (b: Uint8Array, o: number) => u16(b, o) * 2 ** 32 + ((b[o + 2]! << 24) >>> 0) + (b[o + 3]! << 16) + (b[o + 4]! << 8) + b[o + 5]!;

/** Reads a possibly compressed name (RFC 1035 §4.1.4) as lower-case text; returns where it ends in place. */
function readName(buf: Uint8Array, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let pos = offset;
  let end = -1;
  for (let jumps = 0; ;) {
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
    const bytes = Buffer.from(
      label.replace(/\\([0-9]{3})/g, (_, d: string) => String.fromCharCode(Number(d))),
      'latin1',
    );
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

export const writeU48 = (b: Buffer, v: number, o: number) => {
  b.writeUInt16BE(Math.floor(v / 2 ** 32), o);
  b.writeUInt32BE(v % 2 ** 32, o + 2);
};

export interface Fields {
  name: string;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  error: number;
  other: Buffer;
}

/** The TSIG variables of §4.3.3, in canonical (lower case, uncompressed) form. */
export function variables(f: Fields): Buffer {
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
export function timers(timeSigned: number, fudge: number): Buffer {
  const out = Buffer.alloc(8);
  writeU48(out, timeSigned, 0);
  out.writeUInt16BE(fudge, 6);
  return out;
}

/** The message as it was signed: without its TSIG RR, ARCOUNT one less, the original ID (§4.3.2). */
export function unsignedPart(msg: Uint8Array, rec: TsigRecord): Buffer {
  const out = Buffer.from(msg.subarray(0, rec.start));
  out.writeUInt16BE(rec.originalId, 0);
  out.writeUInt16BE(u16(out, 10) - 1, 10);
  return out;
}

/** The TSIG RR in wire form. */
export function tsigRR(f: Fields & { mac: Buffer; originalId: number }): Buffer {
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
export function append(msg: Buffer, rr: Buffer): Buffer {
  const out = Buffer.concat([msg, rr]);
  out.writeUInt16BE(u16(out, 10) + 1, 10);
  return out;
}

/** Octets a TSIG RR with this key adds to a message (at most; for leaving room when packing). */
export function tsigSpace(keyName: string, algorithm: string): number {
  return nameWire(keyName).length + 10 + nameWire(algorithm).length + 16 + 64 + 6;
}
