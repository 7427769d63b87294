/**
 * What follows an entry's owner (RFC 1035 §5.1): `[ttl] [class] type`, TTL and class in either
 * order, the type a mnemonic or RFC 3597's TYPEnnn; the tokens after it are the rdata.
 */
import { RuleError } from '../errors';
import type { Token } from '../rdata/presentation';
import { RECORD_TYPE_BY_CODE } from '../record-types';
import { looksLikeTtl, parseTtlText } from './ttl-text';

/** Made by zonedeck when it signs (RFC 4034, 5155, 7344, 8976): ignored, not refused. */
export const DNSSEC_TYPES: Record<string, number> = { DNSKEY: 48, RRSIG: 46, NSEC: 47, NSEC3: 50, NSEC3PARAM: 51, CDS: 59, CDNSKEY: 60, ZONEMD: 63 };
const DNSSEC_BY_CODE = new Map(Object.entries(DNSSEC_TYPES).map(([n, c]) => [c, n]));

const CLASSES = new Set(['IN', 'CH', 'CHAOS', 'HS', 'HESIOD', 'CS', 'NONE', 'ANY']);
const isClass = (t: string): boolean => CLASSES.has(t.toUpperCase()) || /^CLASS[0-9]{1,5}$/i.test(t);
const isIn = (t: string): boolean => /^(IN|CLASS1)$/i.test(t);

/** A type token: its mnemonic, with TYPEnnn (RFC 3597 §5) mapped to the known name. */
function typeName(t: string): string {
  const upper = t.toUpperCase();
  const m = /^TYPE([0-9]{1,5})$/.exec(upper);
  if (!m) return upper;
  const code = Number(m[1]);
  return RECORD_TYPE_BY_CODE.get(code)?.type ?? DNSSEC_BY_CODE.get(code) ?? (code === 6 ? 'SOA' : upper);
}

/** Whether the tokens after the owner (at `i`) are [ttl] [class] SOA. */
export function isSoaLine(tokens: readonly Token[], i: number): boolean {
  for (let k = i; k < Math.min(tokens.length, i + 3); k++) if (tokens[k]!.text.toUpperCase() === 'SOA') return true;
  return false;
}

export interface EntryPrefix {
  /** The TTL written on the entry, if one is. */
  ttl: number | undefined;
  /** The type's mnemonic, upper case. */
  type: string;
  rdata: Token[];
}

/** Reads `[ttl] [class] type` from `tokens[start]` on; only class IN is taken. */
export function readPrefix(tokens: Token[], start: number): EntryPrefix {
  let i = start;
  let ttl: number | undefined;
  let cls: string | undefined;
  for (let k = 0; k < 2 && i < tokens.length; k++) {
    const t = tokens[i]!.text;
    if (ttl === undefined && looksLikeTtl(t)) ttl = parseTtlText(t);
    else if (cls === undefined && isClass(t)) cls = t;
    else break;
    i++;
  }
  if (i >= tokens.length) throw new RuleError('the record has no type');
  if (cls !== undefined && !isIn(cls)) throw new RuleError(`class ${cls.toUpperCase()} is not supported; only IN`);
  const type = typeName(tokens[i]!.text);
  return { ttl, type, rdata: tokens.slice(i + 1) };
}
