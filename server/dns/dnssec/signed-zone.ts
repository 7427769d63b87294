/**
 * The whole zone as a signed zone file would hold it, for zone transfers (RFC 4035 §2):
 * every authoritative RRset with its RRSIG, an NSEC chain over the authoritative names and
 * delegation points, and below each cut the glue unsigned (§2.2: NS at a cut and glue are
 * not signed). Names come in canonical order, the apex first, so secondaries that check
 * the zone (ldns-verify-zone, Knot, NSD) read it as they would a zone signed offline.
 */
import { T, type RRset } from '../index/rrset';
import type { Zone } from '../index/zone';
import { compareKeys, sortKey } from './canonical';
import { nsecChain, type ChainEntry } from './denial';
import type { ZoneSigner } from './sign';

/** The last transfer's NSEC RRsets per zone signer, reused (with their signatures) while unchanged. */
const lastChain = new WeakMap<ZoneSigner, Map<string, RRset>>();

/** Every RRset of the zone but the SOA itself (the transfer starts and ends with it), with RRSIGs and NSECs. */
export function signedZoneSets(zone: Zone, signer: ZoneSigner): RRset[] {
  const names = [...zone.nodes.keys()].map((name) => ({ name, key: sortKey(name) })).sort((a, b) => compareKeys(a.key, b.key));
  const owners: ChainEntry[] = [];
  for (const { name } of names) {
    const cut = zone.cutAbove(name);
    if (cut && cut !== name) continue;
    const node = zone.nodes.get(name)!;
    // A name whose only record is an ALIAS without addresses holds nothing to transfer, as unsigned.
    if (node.size === 0) continue;
    // At a delegation point only NS (and DS) belong to this zone (RFC 4035 §2.3).
    owners.push({ name, types: cut === name ? [...node.keys()].filter((t) => t === T.NS || t === T.DS) : [...node.keys()] });
  }
  const chain = nsecChain(owners, zone.soa.ttl, lastChain.get(signer) ?? new Map());
  lastChain.set(signer, chain);

  const out: RRset[] = [];
  for (const { name } of names) {
    const node = zone.nodes.get(name)!;
    const cut = zone.cutAbove(name);
    const glue = cut !== undefined && cut !== name;
    const delegation = cut === name;
    for (const set of node.values()) {
      if (set.type !== T.SOA) out.push(set);
      const signed = !glue && (!delegation || set.type === T.DS);
      if (signed) out.push(signer.sign(set));
    }
    const nsec = chain.get(name);
    if (nsec) out.push(nsec, signer.sign(nsec));
  }
  return out;
}
