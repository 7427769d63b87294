/**
 * The authoritative resolver: a pure function from a question and the zone index to the
 * RRsets of a response (RFC 1034 §4.3.2), with no sockets and no bytes. It covers exact
 * matches, CNAME chasing inside the zone (RFC 1034 §3.6.2, RFC 6604 for the final RCODE),
 * referrals with glue at zone cuts, DNAME substitution (RFC 6672), wildcards (RFC 4592),
 * empty non-terminals, negative answers with the SOA (RFC 2308 §2–3), minimal ANY (RFC 8482)
 * and SERVFAIL for an ALIAS whose addresses cannot be had. DNSSEC signing
 * (dnssec/online.ts) works on the returned RRsets before they are encoded; `denial` tells it
 * what a negative answer must prove.
 */
import { isInZone } from '../../core/domain-name';
import { wireLength } from '../dnssec/canonical';
import { RCODE, T, withOwner, type RRset } from './rrset';
import type { Node, Zone } from './zone';
import type { ZoneLookup } from './zone-index';

export interface Question {
  /** Lower case, absolute, no trailing dot; non-LDH octets escaped as \DDD. */
  qname: string;
  qtype: number;
  /** Over TCP, ANY returns every RRset at the name (RFC 8482 §4.4 lets TCP differ). */
  tcp?: boolean;
}

/** A response as response rate limiting tells responses apart. */
export type ResponseKind = 'answer' | 'nodata' | 'nxdomain' | 'referral' | 'refused' | 'error';

export interface Resolution {
  rcode: number;
  /** Authoritative Answer: false for REFUSED and for plain referrals. */
  aa: boolean;
  /** The zone that answered, or null when the name is outside every zone. */
  zone: Zone | null;
  answer: RRset[];
  authority: RRset[];
  additional: RRset[];
  /**
   * For a negative answer, what DNSSEC must prove: the name that has no data (the last of a
   * CNAME chain) and the types present there, or null when the name does not exist.
   */
  denial?: { name: string; types: number[] | null };
  /**
   * What kind of response this is, for response rate limiting (rrl.ts); decided here because the
   * wire cannot always tell: compact denial (dnssec/online.ts) sends an NXDOMAIN as NOERROR.
   */
  kind: ResponseKind;
  /**
   * The name the response is counted under when it is not the question's own, so that names an
   * asker makes up share one bucket: the wildcard an answer was synthesized from (`*.example.com`),
   * the DNAME that rewrote the name, the zone cut of a referral, the zone of an NXDOMAIN.
   */
  rrlName?: string;
}

/** How many CNAMEs are followed before stopping (loops are also cut). */
const MAX_CHAIN = 8;

const ADDRESS_TYPES = [T.A, T.AAAA];

const refused = (): Resolution => ({ rcode: RCODE.REFUSED, aa: false, zone: null, answer: [], authority: [], additional: [], kind: 'refused' });
/** A hosted zone still loading at start-up: try again (another server, or in a moment). */
const loading = (): Resolution => ({ rcode: RCODE.SERVFAIL, aa: false, zone: null, answer: [], authority: [], additional: [], kind: 'error' });

/** The host names an RRset points at, whose addresses go in the additional section (RFC 1035 §3.3). */
function targets(set: RRset): string[] {
  switch (set.type) {
    case T.NS:
      return set.data as string[];
    case T.MX:
      return (set.data as { exchange: string }[]).map((d) => d.exchange);
    case T.SRV:
      return (set.data as { target: string }[]).map((d) => d.target);
    default:
      return [];
  }
}

/** A and AAAA RRsets of in-zone targets; `glue` also reads below zone cuts (RFC 1034 §4.2.1). */
function addresses(zone: Zone, sets: RRset[], glue: boolean): RRset[] {
  const out: RRset[] = [];
  const seen = new Set<string>();
  for (const set of sets) {
    for (const host of targets(set)) {
      if (seen.has(host) || !isInZone(host, zone.name)) continue;
      seen.add(host);
      if (!glue && zone.cutAbove(host)) continue;
      const node = zone.nodes.get(host);
      for (const t of ADDRESS_TYPES) {
        const s = node?.get(t);
        if (s) out.push(s);
      }
    }
  }
  return out;
}

/** The zone whose data answers a question; DS is answered above the cut (RFC 4035 §3.1.4.1). */
function zoneFor(index: ZoneLookup, q: Question): Zone | undefined {
  const zone = index.find(q.qname);
  if (zone && q.qtype === T.DS && zone.name === q.qname) {
    const dot = q.qname.indexOf('.');
    const parent = dot < 0 ? undefined : index.find(q.qname.slice(dot + 1));
    if (parent) return parent;
  }
  return zone;
}

export function resolve(index: ZoneLookup, q: Question): Resolution {
  const zone = zoneFor(index, q);
  if (!zone) return index.loading?.(q.qname) ? loading() : refused();
  const res: Resolution = { rcode: RCODE.NOERROR, aa: true, zone, answer: [], authority: [], additional: [], kind: 'answer' };
  const negative = (rcode: number, name: string, types: number[] | null) => {
    res.rcode = rcode;
    res.authority.push(zone.soa);
    res.denial = { name, types };
    // Every name that does not exist in a zone shares the zone's bucket, as in BIND and Knot.
    if (rcode === RCODE.NXDOMAIN) {
      res.kind = 'nxdomain';
      res.rrlName = zone.name;
    } else if (res.answer.length === 0) res.kind = 'nodata';
    return res;
  };
  // A signed secondary's NSEC3 owners are no names of the zone (RFC 5155 §7.2.8), but asked for
  // by type at its hashed owner, an NSEC3 is answered as data.
  if (q.qtype === T.NSEC3 && zone.nsec3.size > 0) {
    const set = zone.nsec3.get(zone.nodes.rel(q.qname) ?? '')?.get(T.NSEC3);
    if (set) {
      res.answer.push(set);
      return res;
    }
  }
  const visited = new Set<string>();
  let name = q.qname;

  for (let step = 0; ; step++) {
    visited.add(name);
    const cut = zone.cutAbove(name);
    // The parent side of a cut is authoritative for the DS RRset there, and for nothing else (RFC 4035 §2.4).
    if (cut === name && q.qtype === T.DS) {
      const ds = zone.nodes.get(cut)!.get(T.DS);
      if (!ds) return negative(RCODE.NOERROR, name, [T.NS]);
      res.answer.push(ds);
      return res;
    }
    if (cut) {
      const ns = zone.nodes.get(cut)!.get(T.NS)!;
      res.aa = res.answer.length > 0;
      if (!res.aa) res.kind = 'referral';
      // Every name below one cut gets the same referral: one bucket, the cut's.
      if (step === 0) res.rrlName = cut;
      res.authority.push(ns);
      res.additional.push(...addresses(zone, [ns], true));
      return res;
    }

    // RFC 6672 §3.2: below a DNAME, the DNAME and a CNAME synthesized from it answer, and
    // the lookup goes on at the new name like a CNAME's (§3.1: the client follows it out of the zone).
    const dname = zone.dnameAbove(name);
    if (dname) {
      const set = zone.nodes.get(dname)!.get(T.DNAME)!;
      const target = zone.dnames.get(dname)!;
      const synthesized = `${name.slice(0, name.length - dname.length - 1)}.${target}`;
      res.answer.push(set);
      // Any name below a DNAME is answered: like a wildcard, counted under the DNAME's owner.
      if (step === 0) res.rrlName = dname;
      // §2.2: a substitution that would exceed 255 octets is YXDOMAIN.
      if (wireLength(synthesized) > 255) {
        res.rcode = RCODE.YXDOMAIN;
        res.kind = 'error';
        return res;
      }
      res.answer.push({ name, type: T.CNAME, ttl: set.ttl, data: [synthesized] });
      if (!isInZone(synthesized, zone.name) || visited.has(synthesized) || step + 1 >= MAX_CHAIN) return res;
      name = synthesized;
      continue;
    }

    // A wildcard's RRsets are answered under the asked name (RFC 4592 §3.3.1), like the rest.
    let owner = name;
    let node: Node | undefined = zone.nodes.get(name);
    if (!node) {
      if (zone.exists(name)) return negative(RCODE.NOERROR, name, []);
      // RFC 4592 §3.3.1: the source of synthesis is "*" under the closest encloser.
      owner = `*.${zone.closestEncloser(name)}`;
      node = zone.nodes.get(owner);
      if (!node) return negative(RCODE.NXDOMAIN, name, null);
      // Names a wildcard answers are as many as an asker cares to make up: one bucket, the wildcard's.
      if (step === 0) res.rrlName = owner;
    }

    if (q.qtype === T.ANY) {
      // A name holding only an ALIAS whose target has no addresses (now) has nothing to show.
      if (node.size === 0) return negative(RCODE.NOERROR, name, []);
      // RFC 8482 §4.2: over UDP one RRset is enough; the lowest type is a stable choice. A signed
      // secondary's RRSIGs and NSEC are proofs, not data: they come with DO (dnssec/passthrough.ts).
      const sets = [...node.values()].filter((s) => s.type !== T.RRSIG && s.type !== T.NSEC).sort((a, b) => a.type - b.type);
      if (sets.length === 0) return negative(RCODE.NOERROR, name, [...node.keys()]);
      for (const set of q.tcp ? sets : sets.slice(0, 1)) res.answer.push(withOwner(set, name));
      return res;
    }

    const cname = node.get(T.CNAME);
    if (cname && q.qtype !== T.CNAME) {
      res.answer.push(withOwner(cname, name));
      const target = cname.data[0] as string;
      // RFC 1034 §3.6.2: restart at the target when it lies in this zone; otherwise the
      // client follows it. Loops and long chains stop with what has been collected.
      if (!isInZone(target, zone.name) || visited.has(target) || step + 1 >= MAX_CHAIN) return res;
      name = target;
      continue;
    }

    const set = node.get(q.qtype);
    // An ALIAS whose target's addresses cannot be had now (dns/alias.ts): SERVFAIL, which resolvers
    // retry within minutes (RFC 2308 §7.1), not a NODATA they would keep for the SOA minimum.
    if (!set && zone.aliases.size > 0 && zone.aliasUnavailable(owner, q.qtype)) return { ...res, rcode: RCODE.SERVFAIL, answer: [], authority: [], additional: [], kind: 'error' };
    if (!set) return negative(RCODE.NOERROR, name, [...node.keys()]);
    res.answer.push(withOwner(set, name));
    res.additional.push(...addresses(zone, [set], false));
    return res;
  }
}
