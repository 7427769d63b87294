/**
 * TXT data (RFC 1035 §3.3.14) is one or more character-strings, and their boundaries are data
 * (RFC 6763 §6). Its `content` is either the text itself, unquoted — one logical
 * text, split into 255-octet strings on the wire — or the quoted presentation form `"a" "b"`,
 * exactly those strings. In both, `\DDD` (a decimal octet) and `\X` (the character X) are read
 * as in RFC 1035 §5.1. Canonical content is plain when the strings are exactly the 255-octet
 * chunking of their text, quoted otherwise. Plain text: a backslash is `\\`; octets 0x00–0x1F,
 * 0x7F and any that are not well-formed UTF-8 are `\DDD`; every other character stays as it is.
 * So "v=spf1 -all" is unchanged and a NUL octet travels through JSON and both databases as
 * `\000`. In a master file every string is printed quoted, everything outside printable ASCII
 * as `\DDD`.
 */
import { RuleError } from '../errors';
import type { Field } from './field';
import { ddd, octetsText, quoteOctets, tokenize, tokenOctets, type Token } from './presentation';

export const MAX_TXT_OCTETS = 4000;

/** The octets of TXT content. */
export function txtOctets(content: string): Uint8Array {
  try {
    return tokenOctets(content, true);
  } catch (e) {
    throw e instanceof RuleError ? new RuleError(`text ${e.message}`) : e;
  }
}

const txtChar = (c: number): string => (c === 0x5c ? '\\\\' : c < 0x20 || c === 0x7f ? ddd(c) : String.fromCharCode(c));

/** Canonical TXT content of octets. */
export function txtText(octets: Uint8Array): string {
  return octetsText(octets, txtChar, false);
}

/** Octets split into character-strings of at most 255 octets (one empty string for none). */
export function splitStrings(octets: Uint8Array): Uint8Array[] {
  if (octets.length === 0) return [octets];
  const out: Uint8Array[] = [];
  for (let i = 0; i < octets.length; i += 255) out.push(octets.subarray(i, i + 255));
  return out;
}

function joinStrings(strings: readonly Uint8Array[]): Uint8Array {
  if (strings.length === 1) return strings[0]!;
  const out = new Uint8Array(strings.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of strings) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Whether the strings are exactly the 255-octet chunking of their concatenation (how plain text goes on the wire). */
function isChunking(strings: readonly Uint8Array[]): boolean {
  if (strings.length === 1) return true;
  for (let i = 0; i < strings.length - 1; i++) if (strings[i]!.length !== 255) return false;
  return strings.at(-1)!.length > 0;
}

/** The tokens of content in the quoted presentation form — one or more quoted strings and nothing else — or null. */
function quotedTokens(content: string): Token[] | null {
  const t = content.trim();
  if (!t.startsWith('"')) return null;
  let tokens: Token[];
  try {
    tokens = tokenize(t);
  } catch {
    return null;
  }
  return tokens.length > 0 && tokens.every((k) => k.quoted) ? tokens : null;
}

const MAX_STRING = 255;

/**
 * The octets of one character-string as written; one longer than 255 octets is split into 255-octet
 * strings, as PowerDNS does with its API's content (its regression suite writes such strings).
 */
function stringsOf(text: string): Uint8Array[] {
  let b: Uint8Array;
  try {
    b = tokenOctets(text);
  } catch (e) {
    throw e instanceof RuleError ? new RuleError(`text ${e.message}`) : e;
  }
  return b.length > MAX_STRING ? splitStrings(b) : [b];
}

function checkLength(v: Uint8Array[]): Uint8Array[] {
  const n = v.reduce((sum, s) => sum + s.length, 0);
  if (n > MAX_TXT_OCTETS) throw new RuleError(`must be at most ${MAX_TXT_OCTETS} octets`);
  return v;
}

/**
 * The character-strings of TXT content: the quoted presentation form
 * (`"a" "b"`) is exactly those strings; anything else is plain text, one logical text split
 * into 255-octet strings. Throws RuleError.
 */
export function txtStrings(content: string): Uint8Array[] {
  const quoted = quotedTokens(content);
  return quoted ? quoted.flatMap((t) => stringsOf(t.text)) : splitStrings(txtOctets(content));
}

/**
 * Canonical TXT content of character-strings: plain text when they are exactly the 255-octet
 * chunking of their text (and that text does not itself read as the quoted form), else the
 * quoted form, so every path keeps the boundaries (RFC 6763 §6).
 */
export function txtContent(strings: readonly Uint8Array[]): string {
  if (isChunking(strings)) {
    const plain = txtText(joinStrings(strings));
    if (!quotedTokens(plain)) return plain;
  }
  return strings.map((s) => quoteOctets(s)).join(' ');
}

/** The whole TXT rdata: one or more character-strings, kept as they are (RFC 1035 §3.3.14). */
export const txtField: Field<Uint8Array[]> = {
  name: 'text',
  label: 'Text',
  hint: `The text itself, without quotes (split into 255-octet strings on the wire), or quoted strings "a" "b" kept exactly; \\DDD for an octet, \\\\ for a backslash; up to ${MAX_TXT_OCTETS} octets`,
  placeholder: 'v=spf1 -all',
  what: 'text',
  rest: true,
  read(c) {
    return checkLength(c.rest().flatMap((t) => stringsOf(t.text)));
  },
  text: (v, zone) => (zone ? v.map((s) => quoteOctets(s, true)).join(' ') : txtContent(v)),
  encode(v, w) {
    for (const s of v) {
      w.u8(s.length);
      w.bytes(s);
    }
  },
  decode(r) {
    const parts: Uint8Array[] = [];
    do parts.push(Uint8Array.from(r.bytes(r.u8('text'), 'text')));
    while (r.left > 0);
    return checkLength(parts);
  },
  edit: txtContent,
  unedit: (input) => input,
};

/** TXT content as its character-strings, checked against the length limit. */
export const readTxtContent = (content: string): Uint8Array[] => checkLength(txtStrings(content));
