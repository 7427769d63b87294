/**
 * The kinds of rdata field the registry's types are made of, part one: unsigned integers
 * (with the mnemonics some types print), domain names and addresses; character-strings are
 * in string-fields.ts, hex and base64 in blob-fields.ts. Each reads presentation tokens,
 * prints, and encodes/decodes its wire form.
 */
import ipaddr from 'ipaddr.js';
import { normalizeTargetName } from '../domain-name';
import { RuleError } from '../errors';
import { canonicalIpv4, canonicalIpv6 } from '../ip-range';
import { says, whatOf, type Field, type FieldMeta } from './field';
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
