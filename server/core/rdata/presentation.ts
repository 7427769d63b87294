/**
 * The presentation format of RFC 1035 §5.1 at the level of one token: where a token ends
 * (whitespace, and in master files `;`, `(` and `)`), quoted strings, and the `\X` and
 * `\DDD` escapes; character-strings turned into octets and back. One scanner serves both
 * record content and the master-file lexer, so they cannot drift apart.
 */
import { RuleError } from '../errors';

export interface Token {
  /** The token as written, quotes and escapes included. */
  text: string;
  /** True when the whole token is one quoted string. */
  quoted: boolean;
  /** 1-based line of a master file (0 in record content). */
  line: number;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

export const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
/** Ends a token outside quotes in a master file (RFC 1035 §5.1). */
export const isSpecial = (c: number): boolean => c === 0x3b || c === 0x28 || c === 0x29;

/**
 * The end of the token starting at `start` (not whitespace). In a master file (`zone`), a
 * special character ends it and a line break may not occur inside quotes. Returns -1 for a
 * quoted string that is not closed.
 */
export function scanToken(text: string, start: number, zone: boolean): { end: number; quoted: boolean } {
  const startsQuoted = text.charCodeAt(start) === QUOTE;
  let firstClose = -1;
  let inQuote = false;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      // A backslash never joins lines of a master file: the line break still ends the entry.
      if (zone && text.charCodeAt(i + 1) === 0x0a) {
        if (inQuote) return { end: -1, quoted: false };
        i++;
        break;
      }
      i += 2;
      continue;
    }
    if (inQuote) {
      if (c === QUOTE) {
        inQuote = false;
        if (firstClose < 0) firstClose = i;
      } else if (zone && c === 0x0a) return { end: -1, quoted: false };
      i++;
      continue;
    }
    if (isSpace(c) || (zone && isSpecial(c))) break;
    if (c === QUOTE) inQuote = true;
    i++;
  }
  if (inQuote) return { end: -1, quoted: false };
  const end = Math.min(i, text.length);
  return { end, quoted: startsQuoted && firstClose === end - 1 };
}

/** Splits record content into tokens: whitespace separates, quotes group (RFC 1035 §5.1). */
export function tokenize(content: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < content.length) {
    if (isSpace(content.charCodeAt(i))) {
      i++;
      continue;
    }
    const { end, quoted } = scanToken(content, i, false);
    if (end < 0) throw new RuleError('has a quoted string that is not closed');
    out.push({ text: content.slice(i, end), quoted, line: 0 });
    i = end;
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * The octets a token stands for: quotes removed (unless `keepQuotes`, for TXT content),
 * `\DDD` a decimal octet, `\X` the character X, everything else as UTF-8 (RFC 1035 §5.1).
 */
export function tokenOctets(text: string, keepQuotes = false): Uint8Array {
  // Fast path: nothing to interpret.
  if (!(keepQuotes ? /\\/ : /["\\]/).test(text)) return encoder.encode(text);
  const out: number[] = [];
  let plainFrom = -1;
  const flush = (to: number) => {
    if (plainFrom >= 0) for (const b of encoder.encode(text.slice(plainFrom, to))) out.push(b);
    plainFrom = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE && !keepQuotes) {
      flush(i);
      continue;
    }
    if (c !== BACKSLASH) {
      if (plainFrom < 0) plainFrom = i;
      continue;
    }
    flush(i);
    if (i + 1 >= text.length) throw new RuleError('ends with a lone backslash; write \\\\ for a backslash');
    const digits = text.slice(i + 1, i + 4);
    if (/^[0-9]{3}$/.test(digits)) {
      const v = Number(digits);
      if (v > 255) throw new RuleError(`has the escape \\${digits}, but \\DDD must be at most 255`);
      out.push(v);
      i += 3;
    } else if (/^[0-9]/.test(digits)) {
      throw new RuleError('has a \\ followed by a digit: a decimal escape is exactly three digits, \\DDD');
    } else {
      const cp = text.codePointAt(i + 1)!;
      for (const b of encoder.encode(String.fromCodePoint(cp))) out.push(b);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  flush(text.length);
  return Uint8Array.from(out);
}

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629 §4), or 0. */
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function codePoint(b: Uint8Array, i: number, n: number): number {
  if (n === 2) return ((b[i]! & 0x1f) << 6) | (b[i + 1]! & 0x3f);
  if (n === 3) return ((b[i]! & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
  return ((b[i]! & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
}

export const ddd = (v: number): string => `\\${String(v).padStart(3, '0')}`;

/**
 * Octets as text: `escape(c)` returns the text of an ASCII octet; octets of well-formed
 * UTF-8 sequences stay characters unless `ascii`, everything else becomes `\DDD`.
 */
export function octetsText(b: Uint8Array, escape: (c: number) => string, ascii: boolean): string {
  let out = '';
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    if (c < 0x80) {
      out += escape(c);
      i++;
      continue;
    }
    const n = ascii ? 0 : utf8Length(b, i);
    if (n === 0) {
      out += ddd(c);
      i++;
    } else {
      out += String.fromCodePoint(codePoint(b, i, n));
      i += n;
    }
  }
  return out;
}

/** Inside a quoted character-string: `"` and `\` escaped, controls as `\DDD`. */
const quotedChar = (c: number): string => (c === QUOTE || c === BACKSLASH ? `\\${String.fromCharCode(c)}` : c < 0x20 || c === 0x7f ? ddd(c) : String.fromCharCode(c));

/**
 * A character-string in quotes (RFC 1035 §5.1). `ascii` (master files): every octet outside
 * printable ASCII as `\DDD`, which every server's parser reads; otherwise UTF-8 stays as is.
 */
export function quoteOctets(b: Uint8Array, ascii = false): string {
  return `"${octetsText(b, quotedChar, ascii)}"`;
}
