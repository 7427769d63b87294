/**
 * TXT data (RFC 1035 §3.3.14) is octets. Its `content` is the text itself, unquoted, in which
 * `\DDD` (a decimal octet) and `\X` (the character X) are read as in RFC 1035 §5.1 (issue 9).
 * Canonical text: a backslash is `\\`; octets 0x00–0x1F, 0x7F and any that are not
 * well-formed UTF-8 are `\DDD`; every other character stays as it is. So "v=spf1 -all" is
 * unchanged and a NUL octet travels through JSON and both databases as `\000`.
 * On the wire the octets are split into character-strings of at most 255 octets; in a master
 * file they are printed the same way, quoted, with everything outside printable ASCII as `\DDD`.
 */
import { RuleError } from '../errors';
import type { Field } from './field';
import { ddd, octetsText, quoteOctets, tokenOctets } from './presentation';

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

function checkLength(v: Uint8Array): Uint8Array {
  if (v.length > MAX_TXT_OCTETS) throw new RuleError(`must be at most ${MAX_TXT_OCTETS} octets`);
  return v;
}

/** The whole TXT rdata: in a master file one or more character-strings, whose octets are joined. */
export const txtField: Field<Uint8Array> = {
  name: 'text',
  label: 'Text',
  hint: `The text itself, without quotes; \\DDD for an octet, \\\\ for a backslash; up to ${MAX_TXT_OCTETS} octets, split into 255-octet strings on the wire`,
  placeholder: 'v=spf1 -all',
  what: 'text',
  rest: true,
  read(c) {
    const parts = c.rest().map((t) => {
      try {
        return tokenOctets(t.text);
      } catch (e) {
        throw e instanceof RuleError ? new RuleError(`text ${e.message}`) : e;
      }
    });
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return checkLength(out);
  },
  text: (v, zone) => (zone ? splitStrings(v).map((s) => quoteOctets(s, true)).join(' ') : txtText(v)),
  encode(v, w) {
    for (const s of splitStrings(v)) {
      w.u8(s.length);
      w.bytes(s);
    }
  },
  decode(r) {
    const parts: number[] = [];
    do {
      for (const b of r.bytes(r.u8('text'), 'text')) parts.push(b);
    } while (r.left > 0);
    return checkLength(Uint8Array.from(parts));
  },
  edit: txtText,
  unedit: (input) => input,
};

/** TXT content as its octets, checked against the length limit. */
export const readTxtContent = (content: string): Uint8Array => checkLength(txtOctets(content));
