/**
 * A signed secondary's denial chain as its primary made it, indexed for finding proofs: the NSEC
 * owners in canonical order (RFC 4034 §6.1), and the NSEC3 hashed owners in hash order with the
 * zone's NSEC3 parameters (RFC 5155 §5 hashing). Built when a DO query first needs it after a
 * change to the zone (its `gen`), so zones never asked with DO never pay for it.
 */
import { createHash } from 'node:crypto';
import { base32hexBytes } from '../../core/rdata/dnssec-fields';
import { T } from '../index/rrset';
import type { Zone } from '../index/zone';
import { compareKeys, nameWire, sortKey } from './canonical';

export interface Nsec3Params {
  algorithm: number;
  iterations: number;
  salt: Uint8Array;
}

export interface DenialChain {
  /** Names holding an NSEC, in canonical order, with their sort keys. */
  nsec: { name: string; key: Buffer[] }[];
  /** NSEC3 hashed owners (relative labels, lower case) in hash order, with the hashes. */
  nsec3: { rel: string; hash: Buffer }[];
  params: Nsec3Params | null;
}

const chains = new WeakMap<Zone, { gen: number; chain: DenialChain }>();

/** The NSEC3 parameters: the apex NSEC3PARAM's, else those of any NSEC3 (RFC 5155 §4, §3.1). */
function paramsOf(zone: Zone): Nsec3Params | null {
  const param = zone.nodes.get(zone.name)?.get(T.NSEC3PARAM)?.data[0] as Uint8Array | undefined;
  const first = param ?? (zone.nsec3.values().next().value?.get(T.NSEC3)?.data[0] as Uint8Array | undefined);
  if (!first || first.length < 5) return null;
  const saltLength = first[4]!;
  return { algorithm: first[0]!, iterations: (first[2]! << 8) | first[3]!, salt: Uint8Array.prototype.slice.call(first, 5, 5 + saltLength) };
}

export function denialChain(zone: Zone): DenialChain {
  const cached = chains.get(zone);
  if (cached && cached.gen === zone.gen) return cached.chain;
  const nsec: DenialChain['nsec'] = [];
  for (const [name, node] of zone.nodes.entries()) if (node.has(T.NSEC)) nsec.push({ name, key: sortKey(name) });
  nsec.sort((a, b) => compareKeys(a.key, b.key));
  const nsec3: DenialChain['nsec3'] = [];
  for (const rel of zone.nsec3.keys()) {
    const hash = base32hexBytes(rel);
    if (hash) nsec3.push({ rel, hash: Buffer.from(hash) });
  }
  nsec3.sort((a, b) => Buffer.compare(a.hash, b.hash));
  const chain = { nsec, nsec3, params: nsec3.length > 0 ? paramsOf(zone) : null };
  chains.set(zone, { gen: zone.gen, chain });
  return chain;
}

/** The NSEC owner that matches or covers `name`: the greatest owner not after it in canonical order. */
export function nsecFor(chain: DenialChain, name: string): string | undefined {
  const key = sortKey(name);
  let lo = 0;
  let hi = chain.nsec.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(chain.nsec[mid]!.key, key) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // Before the first owner (the apex comes first, so never for a name in the zone): the last one wraps round.
  return (found < 0 ? chain.nsec.at(-1) : chain.nsec[found])?.name;
}

/** The NSEC3 hash of a name (RFC 5155 §5): SHA-1 over its canonical wire form and the salt, iterated. */
export function nsec3Hash(name: string, params: Nsec3Params): Buffer {
  let h = createHash('sha1').update(nameWire(name)).update(params.salt).digest();
  for (let i = 0; i < params.iterations; i++) h = createHash('sha1').update(h).update(params.salt).digest();
  return h;
}

/** The NSEC3 hashed owner (relative) that matches `name`'s hash, or covers it; `exact` says which. */
export function nsec3For(chain: DenialChain, name: string): { rel: string; exact: boolean } | undefined {
  if (!chain.params || chain.params.algorithm !== 1 || chain.nsec3.length === 0) return undefined;
  const hash = nsec3Hash(name, chain.params);
  let lo = 0;
  let hi = chain.nsec3.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (Buffer.compare(chain.nsec3[mid]!.hash, hash) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // Before the first hash: the last NSEC3 wraps round and covers it (RFC 5155 §3.1.7).
  const at = found < 0 ? chain.nsec3.at(-1)! : chain.nsec3[found]!;
  return { rel: at.rel, exact: at.hash.equals(hash) };
}
