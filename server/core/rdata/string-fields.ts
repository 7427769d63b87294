/**
 * Character-string fields (RFC 1035 §3.3): one length-prefixed string, the string that
 * fills the rest of the rdata (CAA value, URI target), and CAA's property tag.
 */
import { RuleError } from '../errors';
import { says, whatOf, type Field, type FieldMeta } from './field';
import { quoteOctets, tokenOctets, type Token } from './presentation';
import { txtText } from './txt';

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
        throw new RuleError(tokens.some((t) => t.quoted) ? says(what, 'must be one quoted string; escape inner quotes as \\"') : says(what, 'with spaces must be quoted'));
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
