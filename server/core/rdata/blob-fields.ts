/** Octets written in hex or base64, which may be split by spaces in presentation form. */
import { RuleError } from '../errors';
import { says, whatOf, type Cursor, type Field, type FieldMeta } from './field';

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
    pdns: (v: Uint8Array) => hexText(v).toLowerCase(),
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
