/**
 * Hashed authenticated denial (RFC 5155) for the zones zonedeck signs itself, with the settings
 * RFC 9276 asks for: SHA-1, no extra iterations, an empty salt, no opt-out. Extra iterations and a
 * salt cost every resolver work without stopping a determined walker (RFC 9276 §2.3), and
 * validators may treat iterations above a small limit as insecure.
 *
 * Online answers use "white lies" (as Knot and PowerDNS sign online): an NSEC3 matching hash h is
 * owned by h with next hashed owner h+1; one covering hash h is owned by h-1 with next h+1. Each
 * covers nothing but what the answer needs, so the zone cannot be walked. Zone transfers get the
 * real chain (`nsec3Chain`) over every authoritative name, delegation point and empty non-terminal.
 */
import { base32hexText } from '../../core/rdata/dnssec-fields';
import { T, type RRset } from '../index/rrset';
import { typeBitmap } from './denial';
import { nsec3Hash, type Nsec3Params } from './passthrough-chain';

/** RFC 9276's parameters: hash algorithm 1 (SHA-1), 0 extra iterations, no salt. */
export const NSEC3_PARAMS: Nsec3Params = { algorithm: 1, iterations: 0, salt: new Uint8Array(0) };
const HASH_LENGTH = 20;
/** Algorithm, flags (no opt-out), iterations (two octets), salt length 0: `1 0 0 -`. */
const PARAM_FIELDS = Buffer.from([1, 0, 0, 0, 0]);

/**
 * The apex NSEC3PARAM (RFC 5155 §4). TTL 0: only authoritative servers read it (§4 says
 * validators ignore it), so no cache should keep it once the zone's denial changes.
 */
export const nsec3ParamRRset = (zone: string): RRset => ({ name: zone, type: T.NSEC3PARAM, ttl: 0, data: [PARAM_FIELDS] });

export const hashOf = (name: string): Buffer => nsec3Hash(name, NSEC3_PARAMS);

/** h+1 modulo 2^160: the all-ones hash wraps round to zero. */
export function hashAfter(h: Uint8Array): Buffer {
  const out = Buffer.from(h);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0xff) {
      out[i]! += 1;
      break;
    }
    out[i] = 0;
  }
  return out;
}

/** h-1 modulo 2^160: zero wraps round to the all-ones hash. */
export function hashBefore(h: Uint8Array): Buffer {
  const out = Buffer.from(h);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0) {
      out[i]! -= 1;
      break;
    }
    out[i] = 0xff;
  }
  return out;
}

/** The NSEC3 owner for a hash: its base32hex label (lower case, as signers write it) under the apex. */
export function hashedOwner(hash: Uint8Array, zone: string): string {
  const label = base32hexText(hash).toLowerCase();
  return zone === '' ? label : `${label}.${zone}`;
}

/** NSEC3 rdata (RFC 5155 §3.2): the parameters, the next hashed owner, the type bitmap. */
export function nsec3Rdata(next: Uint8Array, types: Iterable<number>): Buffer {
  return Buffer.concat([PARAM_FIELDS, Buffer.from([HASH_LENGTH]), next, typeBitmap(types)]);
}

/**
 * The types an NSEC3 lists for a name holding `types` (RFC 5155 §3.1.8): at a delegation point only
 * NS and DS belong to the zone, and RRSIG is listed where something is signed (data, or a DS at a
 * cut); an empty non-terminal lists nothing.
 */
export function nsec3Types(types: readonly number[], delegation: boolean): number[] {
  const own = delegation ? types.filter((t) => t === T.NS || t === T.DS) : [...types];
  const signed = delegation ? own.includes(T.DS) : own.length > 0;
  return signed ? [...own, T.RRSIG] : own;
}

/** The white lie matching `name`: owned by its hash, next hash one more, listing `types` as they are. */
export function matchingNsec3(zone: string, name: string, types: readonly number[], ttl: number): RRset {
  const h = hashOf(name);
  return { name: hashedOwner(h, zone), type: T.NSEC3, ttl, data: [nsec3Rdata(hashAfter(h), types)] };
}

/** The white lie covering `name`'s hash: owned by one less, next one more, no types. */
export function coveringNsec3(zone: string, name: string, ttl: number): RRset {
  const h = hashOf(name);
  return { name: hashedOwner(hashBefore(h), zone), type: T.NSEC3, ttl, data: [nsec3Rdata(hashAfter(h), [])] };
}

export interface Nsec3Entry {
  name: string;
  /** The types the NSEC3 lists (`nsec3Types`). */
  types: number[];
}

/**
 * The real NSEC3 chain of a zone (RFC 5155 §7.1), in hash order, the last pointing back at the
 * first. `previous` holds the last transfer's NSEC3 RRsets by owner: an unchanged one is reused as
 * the same object, so its cached signature is too.
 */
export function nsec3Chain(zone: string, entries: readonly Nsec3Entry[], ttl: number, previous: Map<string, RRset>): Map<string, RRset> {
  const hashed = entries.map((e) => ({ ...e, hash: hashOf(e.name) })).sort((a, b) => Buffer.compare(a.hash, b.hash));
  const chain = new Map<string, RRset>();
  hashed.forEach((e, i) => {
    const rdata = nsec3Rdata(hashed[(i + 1) % hashed.length]!.hash, e.types);
    const owner = hashedOwner(e.hash, zone);
    const before = previous.get(owner);
    const same = before && before.ttl === ttl && (before.data[0] as Buffer).equals(rdata);
    chain.set(owner, same ? before : { name: owner, type: T.NSEC3, ttl, data: [rdata] });
  });
  return chain;
}
