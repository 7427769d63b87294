/**
 * The NSEC3 white lies a negative answer of a zone in nsec3 mode carries (RFC 5155 §7.2), made
 * per answer and signed by content like compact denial's NSEC:
 * - NODATA, an empty non-terminal and a name a wildcard stands for: the NSEC3 matching the name,
 *   listing the types there (§7.2.3, §7.2.4; a synthesized name lists the wildcard's);
 * - a name that does not exist: the closest encloser proof (§7.2.1) — the NSEC3 matching the
 *   closest encloser with its real types, one covering the next closer name — and one covering
 *   the wildcard at the closest encloser (§7.2.2);
 * - a referral to a cut without DS, and a DS query there: the NSEC3 matching the cut, NS only (§7.2.7).
 * A hashed owner name is no name of the zone: asked for, it is NXDOMAIN like any other (§7.2.8).
 */
import { T, type RRset } from '../index/rrset';
import type { Zone } from '../index/zone';
import { coveringNsec3, matchingNsec3, nsec3Types } from './nsec3';

/** The name one label longer than `encloser` on the way down to `name` (RFC 5155 §1.3). */
export function nextCloser(name: string, encloser: string): string {
  let n = name;
  for (;;) {
    const dot = n.indexOf('.');
    const parent = dot < 0 ? '' : n.slice(dot + 1);
    if (parent === encloser || parent === n) return n;
    n = parent;
  }
}

/** The NSEC3 matching `name`, listing the types `types` it holds (a cut's own only). */
function matching(zone: Zone, name: string, types: readonly number[]): RRset {
  return matchingNsec3(zone.name, name, nsec3Types(types, zone.cuts.has(name)), zone.soa.ttl);
}

/** The NSEC3 records that prove a negative answer: `types` at `name`, or null when it does not exist. */
export function nsec3Denial(zone: Zone, name: string, types: readonly number[] | null): RRset[] {
  if (types !== null) return [matching(zone, name, types)];
  const encloser = zone.closestEncloser(name);
  const there = zone.nodes.get(encloser);
  const ttl = zone.soa.ttl;
  return [matching(zone, encloser, there ? [...there.keys()] : []), coveringNsec3(zone.name, nextCloser(name, encloser), ttl), coveringNsec3(zone.name, `*.${encloser}`, ttl)];
}

/** A referral to a child without DS: the NSEC3 matching the cut, NS only. */
export const nsec3AtCut = (zone: Zone, cut: string): RRset => matching(zone, cut, [T.NS]);
