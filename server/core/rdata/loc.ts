/**
 * LOC (RFC 1876): `d1 [m1 [s1]] N|S d2 [m2 [s2]] E|W alt[m] [size[m] [hp[m] [vp[m]]]]` in,
 * printed in full as dig prints it: `52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m`.
 * Sizes and precisions travel as a digit times a power of ten (centimetres); like BIND,
 * a value between two such steps is rounded down (25m is stored as 20m).
 */
import { RuleError } from '../errors';
import type { Field, FieldMeta } from './field';

export interface Loc {
  size: number;
  hp: number;
  vp: number;
  /** Thousandths of an arc second north of the equator / east of Greenwich (signed). */
  lat: number;
  lon: number;
  /** Centimetres above the WGS 84 reference spheroid (signed). */
  alt: number;
}

const EQUATOR = 2 ** 31;
const ALT_BASE = 10_000_000; // 100,000 m below the spheroid, in cm (RFC 1876 §2)
const DEFAULTS = { size: 0x12, hp: 0x16, vp: 0x13 }; // 1m, 10000m, 10m

/** Centimetres to the one-octet mantissa/exponent form, rounding down as BIND does. */
function sizeByte(cm: number): number {
  let exp = 0;
  while (exp < 9 && cm >= 10 ** (exp + 1)) exp++;
  return (Math.floor(cm / 10 ** exp) << 4) | exp;
}

function sizeText(b: number): string {
  const mant = b >> 4;
  const exp = b & 15;
  return exp >= 2 ? `${mant * 10 ** (exp - 2)}m` : `0.${String(mant * 10 ** exp).padStart(2, '0')}m`;
}

function checkSize(b: number, what: string): number {
  if (b >> 4 > 9 || (b & 15) > 9) throw new RuleError(`${what} must have a mantissa and exponent from 0 to 9 (RFC 1876 §2)`);
  return b >> 4 === 0 ? 0 : b;
}

/** Metres with up to two decimals (an optional "m") to centimetres. */
function metres(t: string | undefined, what: string, signed: boolean): number {
  const m = t === undefined ? null : (signed ? /^(-?)([0-9]{1,8})(?:\.([0-9]{1,2}))?m?$/ : /^()([0-9]{1,8})(?:\.([0-9]{1,2}))?m?$/).exec(t);
  if (!m) throw new RuleError(`${what} must be in metres with up to two decimals, like ${signed ? '-2.50m' : '10m'}`);
  const cm = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cm : cm;
}

function centimetresText(cm: number): string {
  const a = Math.abs(cm);
  return `${cm < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}m`;
}

/** Reads degrees [minutes [seconds]] and a hemisphere letter; returns signed thousandths of a second. */
function angle(tokens: string[], at: { i: number }, maxDeg: number, hemispheres: [string, string], what: string): number {
  const parts: string[] = [];
  while (at.i < tokens.length && parts.length < 3 && !hemispheres.includes(tokens[at.i]!.toUpperCase())) parts.push(tokens[at.i++]!);
  const hemi = tokens[at.i++]?.toUpperCase();
  if (!hemi || !hemispheres.includes(hemi) || parts.length === 0) {
    throw new RuleError(`${what} must be degrees [minutes [seconds]] followed by ${hemispheres.join(' or ')}`);
  }
  const [d, m = '0', s = '0'] = parts;
  if (!/^[0-9]{1,3}$/.test(d!) || Number(d) > maxDeg) throw new RuleError(`${what} degrees must be a whole number from 0 to ${maxDeg}`);
  if (!/^[0-9]{1,2}$/.test(m) || Number(m) > 59) throw new RuleError(`${what} minutes must be a whole number from 0 to 59`);
  const sm = /^([0-9]{1,2})(?:\.([0-9]{1,3}))?$/.exec(s);
  if (!sm || Number(sm[1]) > 59) throw new RuleError(`${what} seconds must be from 0 to 59.999`);
  const ms = Number(d) * 3_600_000 + Number(m) * 60_000 + Number(sm[1]) * 1000 + Number((sm[2] ?? '').padEnd(3, '0'));
  if (ms > maxDeg * 3_600_000) throw new RuleError(`${what} must be at most ${maxDeg} degrees`);
  return hemi === hemispheres[0] ? ms : -ms;
}

function angleText(v: number, hemispheres: [string, string]): string {
  const a = Math.abs(v);
  const d = Math.floor(a / 3_600_000);
  const m = Math.floor(a / 60_000) % 60;
  const s = Math.floor(a / 1000) % 60;
  return `${d} ${m} ${s}.${String(a % 1000).padStart(3, '0')} ${v < 0 ? hemispheres[1] : hemispheres[0]}`;
}

const LAT: [string, string] = ['N', 'S'];
const LON: [string, string] = ['E', 'W'];

/** LOC presentation text; `fixed`: sizes with two decimals, as PowerDNS prints them (`1.00m`). */
export function locText(v: Loc, fixed = false): string {
  const size = fixed ? (b: number) => `${(((b >> 4) * 10 ** (b & 15)) / 100).toFixed(2)}m` : sizeText;
  return `${angleText(v.lat, LAT)} ${angleText(v.lon, LON)} ${centimetresText(v.alt)} ${size(v.size)} ${size(v.hp)} ${size(v.vp)}`;
}

/** The whole LOC rdata as one field. */
export function locField(meta: FieldMeta): Field<Loc> {
  return {
    ...meta,
    what: 'location',
    wide: true,
    rest: true,
    read(c) {
      const tokens = c.rest().map((t) => t.text);
      const at = { i: 0 };
      const lat = angle(tokens, at, 90, LAT, 'latitude');
      const lon = angle(tokens, at, 180, LON, 'longitude');
      const alt = metres(tokens[at.i++], 'altitude', true);
      if (alt < -ALT_BASE || alt + ALT_BASE > 0xffffffff) throw new RuleError('altitude must be from -100000.00m to 42849672.95m');
      const sized = (name: string, fallback: number) => {
        const t = tokens[at.i++];
        if (t === undefined) return fallback;
        const cm = metres(t, name, false);
        if (cm > 9_000_000_000) throw new RuleError(`${name} must be at most 90000000.00m`);
        return sizeByte(cm);
      };
      const size = sized('size', DEFAULTS.size);
      const hp = sized('horizontal precision', DEFAULTS.hp);
      const vp = sized('vertical precision', DEFAULTS.vp);
      if (at.i < tokens.length) throw new RuleError(`has "${tokens[at.i]}" after the vertical precision`);
      return { size, hp, vp, lat, lon, alt };
    },
    text: (v) => locText(v),
    pdns: (v) => locText(v, true),
    encode(v, w) {
      w.u8(0);
      w.u8(v.size);
      w.u8(v.hp);
      w.u8(v.vp);
      w.u32(EQUATOR + v.lat);
      w.u32(EQUATOR + v.lon);
      w.u32(ALT_BASE + v.alt);
    },
    decode(r) {
      if (r.u8('version') !== 0) throw new RuleError('version must be 0 (RFC 1876 §2)');
      const size = checkSize(r.u8('size'), 'size');
      const hp = checkSize(r.u8('horizontal precision'), 'horizontal precision');
      const vp = checkSize(r.u8('vertical precision'), 'vertical precision');
      const lat = r.u32('latitude') - EQUATOR;
      const lon = r.u32('longitude') - EQUATOR;
      const alt = r.u32('altitude') - ALT_BASE;
      if (Math.abs(lat) > 90 * 3_600_000) throw new RuleError('latitude must be at most 90 degrees');
      if (Math.abs(lon) > 180 * 3_600_000) throw new RuleError('longitude must be at most 180 degrees');
      return { size, hp, vp, lat, lon, alt };
    },
  };
}
