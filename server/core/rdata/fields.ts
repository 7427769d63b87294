/**
 * The kinds of rdata field the registry's types are made of: unsigned integers (with the
 * mnemonics some types print), domain names, addresses, character-strings, hex and base64
 * blobs. Each reads presentation tokens, prints, and encodes/decodes its wire form.
 */
import ipaddr from 'ipaddr.js';
import { normalizeTargetName } from '../domain-name';
import { RuleError } from '../errors';
import { canonicalIpv4, canonicalIpv6 } from '../ip-range';
import { ByteWriter, type ByteReader } from './bytes';
import { says, whatOf, type Cursor, type Field, type FieldMeta, type ReadContext } from './field';
import { quoteOctets, tokenOctets, type Token } from './presentation';
import { txtText } from './txt';
import { decodeName, encodeName } from './wire-name';

const MAX = { 8: 0xff, 16: 0xffff, 32: 0xffffffff } as const;

export interface Mnemonics {
  names: Readonly<Record<number, string>>;
  /** Print the mnemonic when there is one (CERT, as dig does); otherwise only accept it. */
  print?: boolean;
}

/** An unsigned integer of 8, 16 or 32 bits, in decimal (or a mnemonic where the type has them). */
export function uint(bits: 8 | 16 | 32, meta: FieldMeta, mnemonics?: Mnemonics): Field<number> {
  const what = whatOf(meta);
  const max = MAX[bits];
  const byName = mnemonics ? new Map(Object.entries(mnemonics.names).map(([k, v]) => [v.toUpperCase(), Number(k)])) : undefined;
  return {
    ...meta,
    what,
    read(c) {
      const t = c.next().text;
      if (/^[0-9]{1,10}$/.test(t) && Number(t) <= max) return Number(t);
      const named = byName?.get(t.toUpperCase());
      if (named !== undefined) return named;
      const alt = mnemonics ? ` or a name such as ${Object.values(mnemonics.names)[0]}` : '';
      throw new RuleError(says(what, `must be a whole number from 0 to ${max}${alt}`));
    },
    text: (v) => (mnemonics?.print ? (mnemonics.names[v] ?? String(v)) : String(v)),
    encode(v, w) {
      if (bits === 8) w.u8(v);
      else if (bits === 16) w.u16(v);
      else w.u32(v);
    },
    decode: (r) => (bits === 8 ? r.u8(what) : bits === 16 ? r.u16(what) : r.u32(what)),
  };
}

/** A name in a master file made absolute: relative to the $ORIGIN unless it ends in a dot. */
export function absoluteName(text: string, origin: string | undefined): string {
  if (origin === undefined) return text;
  if (text === '@') return origin === '' ? '.' : `${origin}.`;
  if (text.endsWith('.') && !text.endsWith('\\.')) return text;
  return origin === '' ? `${text}.` : `${text}.${origin}.`;
}

/**
 * A host name in rdata: absolute, stored without the trailing dot. `allowRoot` admits "."
 * (null MX, RFC 7505; SRV "no service", RFC 2782; SVCB, NAPTR).
 */
export function name(meta: FieldMeta, opts: { allowRoot?: boolean } = {}): Field<string> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c, ctx) {
      const t = c.next();
      try {
        if (t.quoted) throw new RuleError('must be a host name, not a quoted string');
        return normalizeTargetName(absoluteName(t.text, ctx.origin), opts.allowRoot);
      } catch (e) {
        throw e instanceof RuleError ? new RuleError(says(what, e.message)) : e;
      }
    },
    text: (v, zone) => (zone && v !== '.' ? `${v}.` : v),
    encode: (v, w) => encodeName(v, w),
    decode(r) {
      const text = decodeName(r);
      try {
        return normalizeTargetName(text, opts.allowRoot);
      } catch (e) {
        throw e instanceof RuleError ? new RuleError(says(what, e.message)) : e;
      }
    },
  };
}

function address(meta: FieldMeta, family: 4 | 6): Field<string> {
  const what = whatOf(meta);
  const canonical = family === 4 ? canonicalIpv4 : canonicalIpv6;
  return {
    ...meta,
    what,
    read(c) {
      try {
        return canonical(c.next().text);
      } catch (e) {
        throw e instanceof RuleError ? new RuleError(says(what, e.message)) : e;
      }
    },
    text: (v) => v,
    encode: (v, w) => w.bytes(addressBytes(v, family)),
    decode: (r) => addressText(r.bytes(family === 4 ? 4 : 16, what), family),
  };
}

export const ipv4 = (meta: FieldMeta) => address(meta, 4);
export const ipv6 = (meta: FieldMeta) => address(meta, 6);

/** Octets of a canonical address. */
export function addressBytes(text: string, family: 4 | 6): Uint8Array {
  return Uint8Array.from((family === 4 ? ipaddr.IPv4 : ipaddr.IPv6).parse(text).toByteArray());
}

/** Canonical text of address octets (RFC 5952 for IPv6). */
export function addressText(b: Uint8Array, family: 4 | 6): string {
  return family === 4 ? Array.from(b).join('.') : new ipaddr.IPv6(Array.from(b)).toRFC5952String();
}

/**
 * The editor shows a character-string as TXT content is written (rdata/txt.ts): unquoted,
 * `\\` for a backslash, `\DDD` for octets that are not text; what is typed is read the same way.
 */
const literal = (v: Uint8Array): string => txtText(v);
function quoteInput(input: string): string {
  try {
    return quoteOctets(tokenOctets(input, true));
  } catch {
    return `"${input.replace(/["\\]/g, (m) => `\\${m}`)}"`;
  }
}

/** One character-string (RFC 1035 §3.3): at most 255 octets, printed in quotes. */
export function charString(meta: FieldMeta): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    read(c) {
      const v = octets(c.next(), what);
      if (v.length > 255) throw new RuleError(says(what, 'must be at most 255 octets'));
      return v;
    },
    text: (v, zone) => quoteOctets(v, zone),
    encode(v, w) {
      w.u8(v.length);
      w.bytes(v);
    },
    decode: (r) => r.bytes(r.u8(what), what),
    edit: literal,
    unedit: quoteInput,
  };
}

function octets(t: Token, what: string): Uint8Array {
  try {
    return tokenOctets(t.text);
  } catch (e) {
    throw e instanceof RuleError ? new RuleError(says(what, e.message)) : e;
  }
}

/**
 * A string that fills the rest of the rdata without a length octet (CAA value, RFC 8659
 * §4.1; URI target, RFC 7553 §4.4), written as one quoted string.
 */
export function restString(meta: FieldMeta, opts: { max?: number; nonEmpty?: boolean } = {}): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    rest: true,
    read(c) {
      const tokens = c.rest();
      if (tokens.length > 1) {
        throw new RuleError(
          tokens.some((t) => t.quoted) ? says(what, 'must be one quoted string; escape inner quotes as \\"') : says(what, 'with spaces must be quoted'),
        );
      }
      const v = octets(tokens[0]!, what);
      if (opts.max !== undefined && v.length > opts.max) throw new RuleError(says(what, `must be at most ${opts.max} octets`));
      if (opts.nonEmpty && v.length === 0) throw new RuleError(says(what, 'must not be empty'));
      return v;
    },
    text: (v, zone) => quoteOctets(v, zone),
    encode: (v, w) => w.bytes(v),
    decode(r) {
      const v = r.rest();
      if (opts.nonEmpty && v.length === 0) throw new RuleError(says(what, 'must not be empty'));
      return v;
    },
    edit: literal,
    unedit: quoteInput,
  };
}

/** The CAA property tag (RFC 8659 §4.1): 1–15 ASCII letters and digits, compared without case. */
export function caaTag(meta: FieldMeta): Field<string> {
  const what = whatOf(meta);
  const check = (t: string) => {
    if (!/^[a-z0-9]{1,15}$/.test(t)) throw new RuleError(says(what, 'must be 1–15 letters or digits (RFC 8659 §4.1)'));
    return t;
  };
  return {
    ...meta,
    what,
    read: (c) => check(c.next().text.toLowerCase()),
    text: (v) => v,
    encode(v, w) {
      w.u8(v.length);
      w.bytes(new TextEncoder().encode(v));
    },
    decode: (r) => check(String.fromCharCode(...r.bytes(r.u8(what), what)).toLowerCase()),
  };
}

const HEX = '0123456789ABCDEF';

export function hexText(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += HEX[c >> 4]! + HEX[c & 15]!;
  return s;
}

export function hexBytes(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Octets in hex, which may be split by spaces (RFC 4034 §5.3, RFC 6698 §2.2); printed in
 * upper case without spaces, as kdig does (dig also splits long values every 56 digits).
 */
export function hex(meta: FieldMeta): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    rest: true,
    wide: true,
    read(c) {
      const text = joined(c);
      if (!/^[0-9a-fA-F]*$/.test(text)) throw new RuleError(says(what, 'must be hex'));
      const v = hexBytes(text);
      if (!v) throw new RuleError(says(what, 'must be hex with an even number of digits'));
      return v;
    },
    text: hexText,
    encode: (v, w) => w.bytes(v),
    decode: (r) => {
      if (r.left === 0) throw new RuleError(says(what, 'must not be empty'));
      return r.rest();
    },
  };
}

const joined = (c: Cursor): string =>
  c
    .rest()
    .map((t) => t.text)
    .join('');

export function base64Text(b: Uint8Array): string {
  let bin = '';
  for (const c of b) bin += String.fromCharCode(c);
  return btoa(bin);
}

export function base64Bytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    return null;
  }
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** Octets in base64 (RFC 4648 §4), which may be split by spaces; printed whole. */
export function base64(meta: FieldMeta): Field<Uint8Array> {
  const what = whatOf(meta);
  return {
    ...meta,
    what,
    rest: true,
    wide: true,
    read(c) {
      const v = base64Bytes(joined(c));
      if (!v) throw new RuleError(says(what, 'must be base64'));
      if (v.length === 0) throw new RuleError(says(what, 'must not be empty'));
      return v;
    },
    text: base64Text,
    encode: (v, w) => w.bytes(v),
    decode: (r) => {
      if (r.left === 0) throw new RuleError(says(what, 'must not be empty'));
      return r.rest();
    },
  };
}

/** Encodes one field value alone (used by SVCB parameters and tests). */
export function encodeOne<V>(f: Field<V>, v: V): Uint8Array {
  const w = new ByteWriter();
  f.encode(v, w);
  return w.finish();
}

export type { ByteReader, ReadContext };
