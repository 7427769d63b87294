/**
 * SvcParams of SVCB and HTTPS (RFC 9460 §2.1–2.2, Appendix A): `key=value` tokens in any
 * order in, printed in increasing key order (as on the wire). The keys of RFC 9460 print by
 * name (mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint); later ones are
 * read by name too (dohpath, RFC 9461; ohttp, RFC 9540) but printed as key7, key8 like any
 * other keyNNNNN, as dig and kdig of BIND 9.18 and Knot 3.2 print them and as their zone
 * parsers require. Values are kept as their wire octets.
 */
import { RuleError } from '../errors';
import { canonicalIpv4, canonicalIpv6 } from '../ip-range';
import type { Field, FieldMeta } from './field';
import { base64Bytes, base64Text } from './blob-fields';
import { addressBytes, addressText } from './fields';
import { octetsText, quoteOctets, tokenOctets } from './presentation';

export type SvcParams = Map<number, Uint8Array>;

interface Key {
  name: string;
  /** The value's octets from its presentation (null: the key was written without "="). */
  parse(value: Uint8Array | null): Uint8Array;
  /** Presentation of the octets (without "key="), or null for a key printed alone. */
  show(v: Uint8Array, zone: boolean): string | null;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const ascii = (b: Uint8Array) => decoder.decode(b);

const required = (v: Uint8Array | null, key: string): Uint8Array => {
  if (v === null || v.length === 0) throw new RuleError(`${key} needs a value`);
  return v;
};

/** A comma-separated list (RFC 9460 Appendix A.1); `escapes`: `\,` and `\\` inside items (alpn). */
function valueList(v: Uint8Array, escapes: boolean): Uint8Array[] {
  const items: number[][] = [[]];
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (escapes && c === 0x5c && i + 1 < v.length) items.at(-1)!.push(v[++i]!);
    else if (c === 0x2c) items.push([]);
    else items.at(-1)!.push(c);
  }
  return items.map((x) => Uint8Array.from(x));
}

function addressHints(family: 4 | 6, key: string): Key {
  const size = family === 4 ? 4 : 16;
  const canonical = family === 4 ? canonicalIpv4 : canonicalIpv6;
  return {
    name: key,
    parse(value) {
      const out: number[] = [];
      for (const item of valueList(required(value, key), false)) {
        let text: string;
        try {
          text = canonical(ascii(item));
        } catch (e) {
          throw new RuleError(`${key} ${(e as Error).message}`);
        }
        out.push(...addressBytes(text, family));
      }
      return Uint8Array.from(out);
    },
    show(v) {
      if (v.length === 0 || v.length % size !== 0) throw new RuleError(`${key} must hold whole addresses`);
      const parts: string[] = [];
      for (let i = 0; i < v.length; i += size) parts.push(addressText(v.subarray(i, i + size), family));
      return parts.join(',');
    },
  };
}

const empty = (key: string): Key => ({
  name: key,
  parse(value) {
    if (value && value.length > 0) throw new RuleError(`${key} takes no value`);
    return new Uint8Array(0);
  },
  show(v) {
    if (v.length > 0) throw new RuleError(`${key} takes no value`);
    return null;
  },
});

/** A value printed as one quoted character-string; octets as they are on the wire. */
const opaque = (key: string): Key => ({
  name: key,
  parse: (value) => value ?? new Uint8Array(0),
  show: (v, zone) => (v.length === 0 ? null : quoteOctets(v, zone)),
});

const KEYS: Record<number, Key> = {
  0: {
    name: 'mandatory',
    parse(value) {
      const codes = valueList(required(value, 'mandatory'), false).map((k) => keyCode(ascii(k)));
      if (codes.includes(0)) throw new RuleError('mandatory must not list itself (RFC 9460 §8)');
      if (new Set(codes).size !== codes.length) throw new RuleError('mandatory lists a key twice (RFC 9460 §8)');
      codes.sort((a, b) => a - b);
      const out = new Uint8Array(codes.length * 2);
      codes.forEach((c, i) => {
        out[i * 2] = c >> 8;
        out[i * 2 + 1] = c & 0xff;
      });
      return out;
    },
    show(v) {
      if (v.length === 0 || v.length % 2 !== 0) throw new RuleError('mandatory must list keys');
      const codes: number[] = [];
      for (let i = 0; i < v.length; i += 2) codes.push((v[i]! << 8) | v[i + 1]!);
      if (codes.some((c, i) => i > 0 && c <= codes[i - 1]!)) throw new RuleError('mandatory keys must be in increasing order (RFC 9460 §8)');
      return codes.map(keyName).join(',');
    },
  },
  1: {
    name: 'alpn',
    parse(value) {
      const out: number[] = [];
      for (const id of valueList(required(value, 'alpn'), true)) {
        if (id.length === 0 || id.length > 255) throw new RuleError('alpn protocol ids must be 1–255 octets');
        out.push(id.length, ...id);
      }
      return Uint8Array.from(out);
    },
    show(v, zone) {
      const ids: string[] = [];
      for (let i = 0; i < v.length;) {
        const n = v[i]!;
        if (n === 0 || i + 1 + n > v.length) throw new RuleError('alpn has a bad protocol id length');
        // Appendix A.1: "," and "\" inside an id are escaped once for the list, once for the string.
        const id = octetsText(
          v.subarray(i + 1, i + 1 + n),
          (c) => (c === 0x2c ? '\\\\,' : c === 0x5c ? '\\\\\\\\' : c === 0x22 ? '\\"' : c < 0x20 || c === 0x7f ? `\\${String(c).padStart(3, '0')}` : String.fromCharCode(c)),
          zone,
        );
        ids.push(id);
        i += 1 + n;
      }
      if (ids.length === 0) throw new RuleError('alpn needs a value');
      return `"${ids.join(',')}"`;
    },
  },
  2: empty('no-default-alpn'),
  3: {
    name: 'port',
    parse(value) {
      const t = ascii(required(value, 'port'));
      if (!/^[0-9]{1,5}$/.test(t) || Number(t) > 65535) throw new RuleError('port must be a whole number from 0 to 65535');
      return Uint8Array.of(Number(t) >> 8, Number(t) & 0xff);
    },
    show(v) {
      if (v.length !== 2) throw new RuleError('port must be two octets');
      return String((v[0]! << 8) | v[1]!);
    },
  },
  4: addressHints(4, 'ipv4hint'),
  5: {
    name: 'ech',
    parse(value) {
      const b = base64Bytes(ascii(required(value, 'ech')));
      if (!b) throw new RuleError('ech must be base64');
      return b;
    },
    show: (v) => base64Text(v),
  },
  6: addressHints(6, 'ipv6hint'),
  7: {
    ...opaque('dohpath'),
    parse: (value) => required(value, 'dohpath'),
  },
  8: empty('ohttp'),
};

const BY_NAME = new Map(Object.entries(KEYS).map(([code, k]) => [k.name, Number(code)]));

function keyCode(name: string): number {
  const k = name.toLowerCase();
  const known = BY_NAME.get(k);
  if (known !== undefined) return known;
  const m = /^key([0-9]{1,5})$/.exec(k);
  if (!m || Number(m[1]) > 65535) throw new RuleError(`unknown parameter key "${name}"`);
  if (Number(m[1]) === 65535) throw new RuleError('key65535 is reserved (RFC 9460 §14.3.2)');
  return Number(m[1]);
}

/** Keys printed by name: those of RFC 9460 itself, which every parser knows. */
const PRINTED_BY_NAME = 6;
const keyName = (code: number): string => (code <= PRINTED_BY_NAME ? KEYS[code]!.name : `key${code}`);
const keyOf = (code: number): Key => KEYS[code] ?? opaque(keyName(code));

/** Cross-parameter rules: mandatory keys present (§8), alpn beside no-default-alpn (§7.1.1). */
function checkParams(p: SvcParams): void {
  const mandatory = p.get(0);
  if (mandatory) {
    for (let i = 0; i < mandatory.length; i += 2) {
      const code = (mandatory[i]! << 8) | mandatory[i + 1]!;
      if (!p.has(code)) throw new RuleError(`mandatory lists ${keyName(code)}, which is missing (RFC 9460 §8)`);
    }
  }
  if (p.has(2) && !p.has(1)) throw new RuleError('no-default-alpn needs alpn beside it (RFC 9460 §7.1.1)');
}

function paramsText(p: SvcParams, zone: boolean): string {
  return [...p.keys()]
    .sort((a, b) => a - b)
    .map((code) => {
      const shown = keyOf(code).show(p.get(code)!, zone);
      return shown === null ? keyName(code) : `${keyName(code)}=${shown}`;
    })
    .join(' ');
}

/** The SvcParams field: every token after the target (none is fine). */
export function svcParams(meta: FieldMeta): Field<SvcParams> {
  return {
    ...meta,
    what: 'parameters',
    wide: true,
    rest: true,
    optional: true,
    read(c) {
      const p: SvcParams = new Map();
      while (!c.done) {
        const raw = c.next().text;
        const m = /^([A-Za-z0-9-]+)(=)?/.exec(raw);
        if (!m) throw new RuleError(`parameter "${raw}" must have the form key=value`);
        const code = keyCode(m[1]!);
        if (p.has(code)) throw new RuleError(`parameter ${keyName(code)} appears twice (RFC 9460 §2.2)`);
        const valueText = m[2] ? raw.slice(m[0].length) : null;
        p.set(code, keyOf(code).parse(valueText === null ? null : tokenOctets(valueText)));
      }
      checkParams(p);
      return p;
    },
    text: paramsText,
    encode(p, w) {
      for (const code of [...p.keys()].sort((a, b) => a - b)) {
        const v = p.get(code)!;
        w.u16(code);
        w.u16(v.length);
        w.bytes(v);
      }
    },
    decode(r) {
      const p: SvcParams = new Map();
      let last = -1;
      while (r.left > 0) {
        const code = r.u16('parameter key');
        if (code <= last) throw new RuleError('parameters must be in increasing key order (RFC 9460 §2.2)');
        if (code === 65535) throw new RuleError('key65535 is reserved (RFC 9460 §14.3.2)');
        last = code;
        const v = r.bytes(r.u16('parameter length'), 'parameter value');
        keyOf(code).show(v, false); // validates
        p.set(code, Uint8Array.from(v));
      }
      checkParams(p);
      return p;
    },
    edit: (p) => paramsText(p, false),
  };
}

/** Whether a SvcParams value is empty (AliasMode records carry none, RFC 9460 §2.4.2). */
export const noParams = (p: SvcParams): boolean => p.size === 0;
