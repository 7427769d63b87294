/**
 * The whole zone as a signed zone file would hold it, for zone transfers (RFC 4035 §2):
 * every authoritative RRset with its RRSIG, a denial chain, and below each cut the glue
 * unsigned (§2.2: NS at a cut and glue are not signed). The chain is NSEC over the
 * authoritative names and delegation points, or in nsec3 mode NSEC3 over those and the empty
 * non-terminals (RFC 5155 §7.1), with NSEC3PARAM at the apex. Names come in canonical order,
 * the apex first (the NSEC3 records after them), so secondaries that check the zone
 * (ldns-verify-zone, Knot, NSD) read it as they would a zone signed offline.
 */
import { T, type RRset } from '../index/rrset';
import type { Zone } from '../index/zone';
import { compareKeys, sortKey } from './canonical';
import { nsecChain, type ChainEntry } from './denial';
import { nsec3Chain, nsec3Types } from './nsec3';
import type { ZoneSigner } from './sign';

/** The last transfer's NSEC (or NSEC3) RRsets per zone signer, reused (with their signatures) while unchanged. */
const lastChain = new WeakMap<ZoneSigner, Map<string, RRset>>();
const lastNsec3 = new WeakMap<ZoneSigner, Map<string, RRset>>();

/** The zone's names in canonical order. */
function sortedNames(zone: Zone): string[] {
  return [...zone.nodes.keys()]
    .map((name) => ({ name, key: sortKey(name) }))
    .sort((a, b) => compareKeys(a.key, b.key))
    .map((n) => n.name);
}

/** The names that get a denial record, with their types: authoritative names with data and delegation points. */
function owners(zone: Zone, names: readonly string[]): (ChainEntry & { delegation: boolean })[] {
  const out: (ChainEntry & { delegation: boolean })[] = [];
  for (const name of names) {
    const cut = zone.cutAbove(name);
    if (cut && cut !== name) continue;
    const node = zone.nodes.get(name)!;
    // A name whose only record is an ALIAS without addresses holds nothing to transfer, as unsigned.
    if (node.size === 0) continue;
    // At a delegation point only NS (and DS) belong to this zone (RFC 4035 §2.3).
    const delegation = cut === name;
    out.push({ name, delegation, types: delegation ? [...node.keys()].filter((t) => t === T.NS || t === T.DS) : [...node.keys()] });
  }
  return out;
}

/** The NSEC3 chain: every owner, and every empty non-terminal between one and the apex (RFC 5155 §7.1). */
function hashedChain(zone: Zone, signer: ZoneSigner, entries: ReturnType<typeof owners>): Map<string, RRset> {
  const listed = new Map(entries.map((e) => [e.name, nsec3Types(e.types, e.delegation)]));
  for (const { name } of entries) {
    for (let n = name; n.length > zone.name.length;) {
      n = n.slice(n.indexOf('.') + 1);
      if (!listed.has(n)) listed.set(n, []);
    }
  }
  const chain = nsec3Chain(
    zone.name,
    [...listed].map(([name, types]) => ({ name, types })),
    zone.soa.ttl,
    lastNsec3.get(signer) ?? new Map(),
  );
  lastNsec3.set(signer, chain);
  return chain;
}

/** Every RRset of the zone but the SOA itself (the transfer starts and ends with it), with RRSIGs and the denial chain. */
export function signedZoneSets(zone: Zone, signer: ZoneSigner): RRset[] {
  const names = sortedNames(zone);
  const entries = owners(zone, names);
  const hashed = zone.denial === 'nsec3';
  let chain: Map<string, RRset>;
  if (hashed) chain = hashedChain(zone, signer, entries);
  else {
    chain = nsecChain(entries, zone.soa.ttl, lastChain.get(signer) ?? new Map());
    lastChain.set(signer, chain);
  }

  const out: RRset[] = [];
  for (const name of names) {
    const node = zone.nodes.get(name)!;
    const cut = zone.cutAbove(name);
    const glue = cut !== undefined && cut !== name;
    const delegation = cut === name;
    for (const set of node.values()) {
      if (set.type !== T.SOA) out.push(set);
      const signed = !glue && (!delegation || set.type === T.DS);
      if (signed) out.push(signer.sign(set));
    }
    const nsec = hashed ? undefined : chain.get(name);
    if (nsec) out.push(nsec, signer.sign(nsec));
  }
  if (hashed) for (const nsec3 of chain.values()) out.push(nsec3, signer.sign(nsec3));
  return out;
}
