/**
 * A signed secondary served as its primary signed it (RFC 4035 §3.1), between the resolver and
 * the encoder, for queries with the DO bit: zonedeck signs nothing here, it picks the stored
 * RRSIGs, NSECs and NSEC3s that the answer needs.
 * - every RRset of the answer gets the stored RRSIGs at its owner that cover its type (§3.1.1);
 *   one synthesized from a wildcard gets the wildcard's (their Labels field tells the validator)
 *   and the proof that the asked name does not exist (§3.1.3.3; RFC 5155 §7.2.6);
 * - NODATA gets the NSEC at the name, or the NSEC3 matching it (§3.1.3.1; RFC 5155 §7.2.3–7.2.5);
 * - NXDOMAIN gets the NSEC covering the name and the one covering the wildcard at the closest
 *   encloser (§3.1.3.2), or the NSEC3 closest encloser proof with the wildcard covered (RFC 5155
 *   §7.2.1–7.2.2), opt-out included;
 * - a referral gets the cut's DS RRset and its RRSIG, else the proof there is none (§3.1.4).
 * A stored RRSIG that is missing leaves its RRset unsigned: the validator calls it bogus, which is
 * the primary's to mend. The result says when the earliest signature in it expires, so the answer
 * cache keeps it no longer.
 */
import type { Resolution } from '../index/resolve';
import { T, type RRset } from '../index/rrset';
import type { Node, Zone } from '../index/zone';
import { denialChain, nsec3For, nsecFor, type DenialChain } from './passthrough-chain';

export interface PassedThrough {
  res: Resolution;
  /** Milliseconds since 1970 when the first of its signatures expires; 0 when it has none. */
  expiresAt: number;
}

/** The owner names above `name` and itself, nearest first, ending with the zone's apex. */
function selfAndAncestors(name: string, apex: string): string[] {
  const out = [name];
  for (let n = name; n.length > apex.length;) {
    n = n.slice(n.indexOf('.') + 1);
    out.push(n);
  }
  return out;
}

/** Collects the proofs and signatures of one answer, each RRset once. */
class Proofs {
  readonly authority: RRset[] = [];
  expiresAt = 0;
  private readonly added = new Set<string>();
  private chainCache: DenialChain | undefined;

  constructor(readonly zone: Zone) {}

  get chain(): DenialChain {
    return (this.chainCache ??= denialChain(this.zone));
  }

  /** The stored RRSIGs in `node` over `set`'s type, under `set`'s owner; undefined when there are none. */
  sigs(node: Node | undefined, set: RRset): RRset | undefined {
    const all = node?.get(T.RRSIG);
    if (!all) return undefined;
    const data = (all.data as Uint8Array[]).filter((d) => ((d[0]! << 8) | d[1]!) === set.type);
    if (data.length === 0) return undefined;
    for (const d of data) {
      const at = (((d[8]! << 24) >>> 0) + (d[9]! << 16) + (d[10]! << 8) + d[11]!) * 1000;
      if (this.expiresAt === 0 || at < this.expiresAt) this.expiresAt = at;
    }
    return { name: set.name, type: T.RRSIG, ttl: set.ttl, data };
  }

  /** `set` and its RRSIGs from `node`, into `out`. */
  signed(out: RRset[], set: RRset, node: Node | undefined): void {
    out.push(set);
    const sig = this.sigs(node, set);
    if (sig) out.push(sig);
  }

  private once(key: string): boolean {
    if (this.added.has(key)) return false;
    this.added.add(key);
    return true;
  }

  /** The NSEC owned by the name that matches or covers `name` (RFC 4034 §4.1), with its RRSIG. */
  nsec(name: string): void {
    const owner = nsecFor(this.chain, name);
    if (owner === undefined || !this.once(`nsec ${owner}`)) return;
    const node = this.zone.nodes.get(owner);
    const set = node?.get(T.NSEC);
    if (set) this.signed(this.authority, set, node);
  }

  /** The NSEC3 matching or covering `name`, with its RRSIG; whether it matches, and the node. */
  nsec3(name: string): { exact: boolean; node: Node | undefined } {
    const found = nsec3For(this.chain, name);
    if (!found) return { exact: false, node: undefined };
    const node = this.zone.nsec3.get(found.rel);
    const set = node?.get(T.NSEC3);
    if (set && this.once(`nsec3 ${found.rel}`)) this.signed(this.authority, set, node);
    return { exact: found.exact, node };
  }

  /**
   * The closest (provable) encloser proof of RFC 5155 §7.2.1: the NSEC3 matching the nearest
   * ancestor that has one, and the NSEC3 covering the next closer name. Returns the encloser.
   */
  closestEncloser(name: string): string {
    const names = selfAndAncestors(name, this.zone.name);
    for (let i = 1; i < names.length; i++) {
      const found = nsec3For(this.chain, names[i]!);
      if (!found?.exact) continue;
      this.nsec3(names[i]!);
      this.nsec3(names[i - 1]!);
      return names[i]!;
    }
    return this.zone.name;
  }

  get hashed(): boolean {
    return this.chain.nsec.length === 0 && this.chain.nsec3.length > 0;
  }

  /** That `name` does not exist, for an answer synthesized from a wildcard (RFC 4035 §3.1.3.3, RFC 5155 §7.2.6). */
  noName(name: string): void {
    if (!this.hashed) return this.nsec(name);
    // The next closer name's cover is enough: the RRSIG's Labels field names the closest encloser.
    const ce = this.zone.closestEncloser(name);
    const names = selfAndAncestors(name, this.zone.name);
    const nextCloser = names[names.indexOf(ce) - 1];
    if (nextCloser) this.nsec3(nextCloser);
  }

  /** NXDOMAIN: the name covered, and the wildcard at its closest encloser (RFC 4035 §3.1.3.2, RFC 5155 §7.2.2). */
  nxdomain(name: string): void {
    if (!this.hashed) {
      this.nsec(name);
      this.nsec(`*.${this.zone.closestEncloser(name)}`);
      return;
    }
    const ce = this.closestEncloser(name);
    this.nsec3(`*.${ce}`);
  }

  /** NODATA: the name's own NSEC (or NSEC3); a name a wildcard stands for also gets the wildcard's (RFC 4035 §3.1.3.4). */
  nodata(name: string): void {
    const exists = this.zone.exists(name);
    if (!this.hashed) {
      this.nsec(name);
      if (!exists) this.nsec(`*.${this.zone.closestEncloser(name)}`);
      return;
    }
    if (!exists) {
      // RFC 5155 §7.2.5: the closest encloser proof and the NSEC3 matching the wildcard.
      const ce = this.closestEncloser(name);
      this.nsec3(`*.${ce}`);
      return;
    }
    // §7.2.3; a name with no NSEC3 of its own lies in an opt-out span: §7.2.4's proof instead.
    if (!this.nsec3Exact(name)) this.closestEncloser(name);
  }

  /** A referral to a child without a DS: the NSEC at the cut, or its NSEC3, or the opt-out span over it (RFC 4035 §3.1.4, RFC 5155 §7.2.7). */
  noDs(cut: string): void {
    if (!this.hashed) return this.nsec(cut);
    if (this.nsec3Exact(cut)) return;
    this.closestEncloser(cut);
  }

  /** Adds the NSEC3 matching `name` when there is one. */
  private nsec3Exact(name: string): boolean {
    const found = nsec3For(this.chain, name);
    if (!found?.exact) return false;
    this.nsec3(name);
    return true;
  }
}

/** Where an answer RRset's data is stored: its owner, the wildcard it came from, or null for a CNAME a DNAME made. */
function sourceOf(zone: Zone, set: RRset): string | null {
  if (zone.nodes.get(set.name)?.has(set.type)) return set.name;
  if (set.type === T.CNAME && zone.dnames.size > 0 && zone.dnameAbove(set.name)) return null;
  const wildcard = `*.${zone.closestEncloser(set.name)}`;
  return zone.nodes.get(wildcard)?.has(set.type) ? wildcard : null;
}

export function passResolution(res: Resolution): PassedThrough {
  const zone = res.zone!;
  // A secondary of an unsigned primary has nothing to pass through.
  if (!zone.nodes.get(zone.name)?.has(T.DNSKEY)) return { res, expiresAt: 0 };
  const p = new Proofs(zone);
  const answer: RRset[] = [];
  for (const set of res.answer) {
    // Signatures are not signed; asked for as data, they are the answer.
    if (set.type === T.RRSIG) {
      answer.push(set);
      continue;
    }
    // An NSEC3 asked for at its hashed owner, which is no name of the zone (resolve.ts).
    if (set.type === T.NSEC3) {
      p.signed(answer, set, zone.nsec3.get(zone.nodes.rel(set.name) ?? ''));
      continue;
    }
    const source = sourceOf(zone, set);
    if (source === null) {
      answer.push(set);
      continue;
    }
    const node = zone.nodes.get(source);
    answer.push(set);
    const sig = p.sigs(node, set);
    if (sig) answer.push(sig);
    if (source !== set.name) p.noName(set.name);
  }

  const authority: RRset[] = [];
  for (const set of res.authority) {
    if (set.type === T.SOA) p.signed(authority, set, zone.nodes.get(zone.name));
    else if (set.type === T.NS && set.name !== zone.name) {
      authority.push(set);
      const node = zone.nodes.get(set.name);
      const ds = node?.get(T.DS);
      if (ds) p.signed(authority, ds, node);
      else p.noDs(set.name);
    } else authority.push(set);
  }

  const additional: RRset[] = [];
  for (const set of res.additional) {
    // Glue below a cut is not the zone's data and carries no signature (RFC 4035 §2.2).
    if (zone.cutAbove(set.name) === undefined) p.signed(additional, set, zone.nodes.get(set.name));
    else additional.push(set);
  }

  if (res.denial) {
    const { name, types } = res.denial;
    if (types === null) p.nxdomain(name);
    else p.nodata(name);
  }
  authority.push(...p.authority);
  return { res: { ...res, answer, authority, additional }, expiresAt: p.expiresAt };
}
