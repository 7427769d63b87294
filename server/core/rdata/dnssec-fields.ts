/**
 * The rdata fields only DNSSEC records have (RFC 4034 §3–4, RFC 5155 §3–4): a name kept as
 * written on the wire (any octets, `*` and `\DDD` included: NSEC next names and RRSIG signers are
 * not host names), a type mnemonic, a type bitmap, a signature time, an NSEC3 salt and a
 * base32hex hashed owner. Each prints the way dnssec-signzone and kdig do.
 */
import { RuleError } from '../errors';
import { says, whatOf, type Cursor, type Field, type FieldMeta } from './field';
import { hexBytes, hexText } from './blob-fields';
import { ddd } from './presentation';
import { TYPE_CODES, TYPE_NAMES } from './type-names';

/** The octets of one presentation label: `\DDD` a decimal octet, `\X` the character X. */
function labelOctets(label: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c !== 0x5c) out.push(c > 0xff ? 0x3f : c);
    else if (/^[0-9]{3}$/.test(label.slice(i + 1, i + 4))) {
      const v = Number(label.slice(i + 1, i + 4));
      if (v > 255) throw new RuleError(`has \\${label.slice(i + 1, i + 4)}, which is not an octet`);
      out.push(v);
      i += 3;
    } else if (i + 1 < label.length) out.push(label.charCodeAt(++i) & 0xff);
    else throw new RuleError('ends with a lone backslash');
  }
  return out;
}

/** A label as the server keeps names: lower case, LDH, `_` and `*` as they are, other octets `\DDD`. */
function labelText(octets: readonly number[]): string {
  let s = '';
  for (let c of octets) {
    if (c >= 0x41 && c <= 0x5a) c += 32;
    const plain = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2a;
    s += plain ? String.fromCharCode(c) : ddd(c);
  }
  return s;
}

/** Splits a presentation name into labels at dots that are not escaped. */
function splitLabels(text: string): string[] {
  const labels: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i += /^[0-9]{3}$/.test(text.slice(i + 1, i + 4)) ? 3 : 1;
    else if (text[i] === '.') {
      labels.push(text.slice(from, i));
      from = i + 1;
    }
  }
  labels.push(text.slice(from));
  return labels;
}

/**
 * A name in the server's form ('' the root, else lower case labels without the trailing dot), from
 * presentation text, absolute when it ends in a dot or when no origin applies.
 */
function readName(text: string, origin: string | undefined): string {
  let t = text;
  if (t === '@' && origin !== undefined) return origin;
  const absolute = t.endsWith('.') && !t.endsWith('\\.');
  if (absolute) t = t.slice(0, -1);
  let labels = t === '' ? [] : splitLabels(t).map((l) => labelOctets(l));
  if (labels.some((l) => l.length === 0 || l.length > 63)) throw new RuleError('must be a domain name with labels of 1 to 63 octets');
  if (!absolute && origin) labels = [...labels, ...splitLabels(origin).map((l) => labelOctets(l))];
  if (labels.reduce((n, l) => n + l.length + 1, 1) > 255) throw new RuleError('must be a domain name of at most 255 octets');
  return labels.map(labelText).join('.');
}

/** A domain name of DNSSEC rdata, any octets allowed, never compressed (RFC 4034 §3.1.7, §4.1.1). */
export function dnssecName(meta: FieldMeta): Field<string> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c, ctx) {
      const t = c.next();
      try {
        if (t.quoted) throw new RuleError('must be a domain name, not a quoted string');
        return readName(t.text, ctx.origin);
      } catch (e) {
        throw e instanceof RuleError ? new RuleError(says(what, e.message)) : e;
      }
    },
    text: (v, zone) => (v === '' ? '.' : zone ? `${v}.` : v),
    encode(v, w) {
      if (v !== '') {
        for (const label of splitLabels(v)) {
          const octets = labelOctets(label);
          w.u8(octets.length);
          w.bytes(Uint8Array.from(octets));
        }
      }
      w.u8(0);
    },
    decode(r) {
      const labels: string[] = [];
      let total = 1;
      for (;;) {
        const len = r.u8(what);
        if (len === 0) break;
        if (len > 63) throw new RuleError(says(what, 'has a bad label length (names here are never compressed, RFC 4034 §3.1.7)'));
        total += len + 1;
        if (total > 255) throw new RuleError(says(what, 'is longer than 255 octets'));
        labels.push(labelText([...r.bytes(len, what)]));
      }
      return labels.join('.');
    },
  };
}

/** A type by its mnemonic, or TYPEnnn (RFC 3597 §5). */
export function typeCode(text: string): number | undefined {
  const upper = text.toUpperCase();
  const known = TYPE_CODES.get(upper);
  if (known !== undefined) return known;
  const m = /^TYPE([0-9]{1,5})$/.exec(upper);
  return m && Number(m[1]) <= 0xffff ? Number(m[1]) : undefined;
}

export const typeText = (code: number): string => TYPE_NAMES.get(code) ?? `TYPE${code}`;

/** The type an RRSIG covers (RFC 4034 §3.2). */
export function coveredType(meta: FieldMeta): Field<number> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c) {
      const code = typeCode(c.next().text);
      if (code === undefined) throw new RuleError(says(what, 'must be a type such as A or TYPE65534'));
      return code;
    },
    text: typeText,
    encode: (v, w) => w.u16(v),
    decode: (r) => r.u16(what),
  };
}

/** The type bitmaps of NSEC and NSEC3 (RFC 4034 §4.1.2): type mnemonics, possibly none (an NSEC3 at an empty non-terminal). */
export function typeBitmap(meta: FieldMeta): Field<number[]> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    rest: true,
    optional: true,
    read(c: Cursor) {
      const codes = new Set<number>();
      while (!c.done) {
        const t = c.next().text;
        const code = typeCode(t);
        if (code === undefined) throw new RuleError(says(what, `has ${t}, which is not a type such as A or TYPE65534`));
        codes.add(code);
      }
      return [...codes].sort((a, b) => a - b);
    },
    text: (v) => v.map(typeText).join(' '),
    encode(v, w) {
      for (let win = 0; win < 256; win++) {
        const bits = v.filter((t) => t >> 8 === win).map((t) => t & 0xff);
        if (bits.length === 0) continue;
        const len = (Math.max(...bits) >> 3) + 1;
        const map = new Uint8Array(len);
        for (const b of bits) map[b >> 3]! |= 0x80 >> (b & 7);
        w.u8(win);
        w.u8(len);
        w.bytes(map);
      }
    },
    decode(r) {
      const out: number[] = [];
      let last = -1;
      while (r.left > 0) {
        const win = r.u8(what);
        const len = r.u8(what);
        // RFC 4034 §4.1.2: windows in increasing order, 1 to 32 octets each.
        if (win <= last || len < 1 || len > 32) throw new RuleError(says(what, 'is not a valid type bitmap (RFC 4034 §4.1.2)'));
        last = win;
        const map = r.bytes(len, what);
        for (let i = 0; i < len; i++) for (let b = 0; b < 8; b++) if (map[i]! & (0x80 >> b)) out.push(win * 256 + i * 8 + b);
      }
      return out;
    },
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A signature time (RFC 4034 §3.2): YYYYMMDDHHmmSS in UTC, or seconds since 1970 as a number. */
export function signatureTime(meta: FieldMeta): Field<number> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c) {
      const t = c.next().text;
      const m = /^([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})$/.exec(t);
      if (m) {
        const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
        const ms = Date.UTC(y, mo - 1, d, h, mi, s);
        const back = new Date(ms);
        if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) throw new RuleError(says(what, 'is not a real date and time'));
        // Serial arithmetic (RFC 4034 §3.1.5): a 32-bit count of seconds, wrapping.
        return (ms / 1000) % 2 ** 32;
      }
      if (/^[0-9]{1,10}$/.test(t) && Number(t) < 2 ** 32) return Number(t);
      throw new RuleError(says(what, 'must be YYYYMMDDHHmmSS (UTC) or seconds since 1970'));
    },
    text(v) {
      const d = new Date(v * 1000);
      return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
    },
    encode: (v, w) => w.u32(v),
    decode: (r) => r.u32(what),
  };
}

/** An NSEC3 salt (RFC 5155 §3.3): hex, or "-" for none; one length octet in front on the wire. */
export function salt(meta: FieldMeta): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c) {
      const t = c.next().text;
      if (t === '-') return new Uint8Array(0);
      const v = hexBytes(t);
      if (!v || v.length === 0) throw new RuleError(says(what, 'must be hex, or "-" for none'));
      if (v.length > 255) throw new RuleError(says(what, 'must be at most 255 octets'));
      return v;
    },
    text: (v) => (v.length === 0 ? '-' : hexText(v)),
    encode(v, w) {
      w.u8(v.length);
      w.bytes(v);
    },
    decode: (r) => r.bytes(r.u8(what), what).slice(),
  };
}

const B32 = '0123456789ABCDEFGHIJKLMNOPQRSTUV';

/** base32hex without padding (RFC 4648 §7), as NSEC3 owner labels and next hashed owners are written. */
export function base32hexText(b: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const c of b) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out += B32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(acc << (5 - bits)) & 31];
  return out;
}

export function base32hexBytes(text: string): Uint8Array | null {
  const t = text.toUpperCase();
  if (!/^[0-9A-V]*$/.test(t) || [1, 3, 6].includes(t.length % 8)) return null;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of t) {
    acc = (acc << 5) | B32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((acc >> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}

/** The NSEC3 next hashed owner name (RFC 5155 §3.3): base32hex, one length octet in front on the wire. */
export function hashedName(meta: FieldMeta): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c) {
      const v = base32hexBytes(c.next().text);
      if (!v || v.length === 0) throw new RuleError(says(what, 'must be base32hex (RFC 4648 §7)'));
      return v;
    },
    text: base32hexText,
    encode(v, w) {
      w.u8(v.length);
      w.bytes(v);
    },
    decode(r) {
      const v = r.bytes(r.u8(what), what).slice();
      if (v.length === 0) throw new RuleError(says(what, 'must not be empty'));
      return v;
    },
  };
}
