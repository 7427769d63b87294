/**
 * Authenticated denial of existence with NSEC (RFC 4034 §4, RFC 4035 §3.1.3).
 *
 * Online answers use compact denial (RFC 9824): a negative answer carries one NSEC owned by
 * the asked name whose next name is the name's immediate successor, so it covers nothing
 * else. For a name with no data of the asked type (NODATA) its bitmap lists the types there;
 * for a name that does not exist, the bitmap is RRSIG NSEC NXNAME and the RCODE is NOERROR
 * (§3.2). One signature per answer, no zone walking, no wildcard or closest-encloser proofs.
 *
 * Zone transfers get a real chain (`nsecChain`): one NSEC per authoritative name and
 * delegation point, in canonical order, the last one pointing back at the apex, so a
 * secondary serves the zone with the usual proofs.
 */
import { T, type RRset } from '../index/rrset';
import { labelBytes } from '../wire/writer';
import { compareKeys, labelsOf, nameWire, presentLabel, sortKey, wireLength } from './canonical';

const MAX_NAME = 255;
const MAX_LABEL = 63;

/** The type bitmaps field (RFC 4034 §4.1.2): per 256-type window, the bits of the types present. */
export function typeBitmap(types: Iterable<number>): Buffer {
  const windows = new Map<number, number[]>();
  for (const t of new Set(types)) {
    const bits = windows.get(t >> 8) ?? [];
    bits.push(t & 0xff);
    windows.set(t >> 8, bits);
  }
  const out: number[] = [];
  for (const win of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(win)!;
    const len = (Math.max(...bits) >> 3) + 1;
    const map = new Array<number>(len).fill(0);
    for (const b of bits) map[b >> 3]! |= 0x80 >> (b & 7);
    out.push(win, len, ...map);
  }
  return Buffer.from(out);
}

export function nsecRdata(next: string, types: Iterable<number>): Buffer {
  return Buffer.concat([nameWire(next), typeBitmap(types)]);
}

/**
 * The immediate successor of a name in canonical order (RFC 4471 §3.1.2, absolute method):
 * "\000." in front when it fits; else a zero octet appended to the first label; else the
 * first label's last octet incremented (a name that long can have no longer neighbour).
 */
export function successor(name: string): string {
  const length = wireLength(name);
  if (length + 2 <= MAX_NAME) return name === '' ? '\\000' : `\\000.${name}`;
  const labels = labelsOf(name);
  let first = labelBytes(labels[0]!);
  if (first.length < MAX_LABEL && length + 1 <= MAX_NAME) return [presentLabel(Buffer.concat([first, Buffer.from([0])])), ...labels.slice(1)].join('.');
  // Drop trailing 0xff octets, then increment the last one (RFC 4471 §3.1.2.2).
  while (first.length > 0 && first[first.length - 1] === 0xff) first = first.subarray(0, -1);
  if (first.length === 0) return labels.slice(1).join('.');
  const bumped = Buffer.from(first);
  bumped[bumped.length - 1]! += 1;
  return [presentLabel(bumped), ...labels.slice(1)].join('.');
}

/**
 * The compact denial NSEC for `name` (RFC 9824 §3): `types` are the types present there
 * (NODATA), or null when the name does not exist (NXDOMAIN, marked with NXNAME).
 */
export function compactNsec(name: string, types: readonly number[] | null, ttl: number): RRset {
  const present = types === null ? [T.NXNAME] : types;
  return { name, type: T.NSEC, ttl, data: [nsecRdata(successor(name), [...present, T.RRSIG, T.NSEC])] };
}

export interface ChainEntry {
  name: string;
  /** The types the NSEC lists (RRSIG and NSEC included). */
  types: number[];
}

/**
 * The NSEC chain of a zone (RFC 4035 §2.3): `owners` are the names that get an NSEC (names
 * with authoritative data and delegation points, not glue or empty non-terminals) with
 * their types. `previous` holds the last transfer's NSEC RRsets by name: an unchanged one
 * is reused as the same object, so its cached signature is too.
 */
export function nsecChain(owners: ChainEntry[], ttl: number, previous: Map<string, RRset>): Map<string, RRset> {
  const sorted = owners.map((o) => ({ ...o, key: sortKey(o.name) })).sort((a, b) => compareKeys(a.key, b.key));
  const chain = new Map<string, RRset>();
  sorted.forEach((o, i) => {
    const next = sorted[(i + 1) % sorted.length]!.name;
    const rdata = nsecRdata(next, [...o.types, T.RRSIG, T.NSEC]);
    const before = previous.get(o.name);
    const same = before && before.ttl === ttl && (before.data[0] as Buffer).equals(rdata);
    chain.set(o.name, same ? before : { name: o.name, type: T.NSEC, ttl, data: [rdata] });
  });
  return chain;
}
