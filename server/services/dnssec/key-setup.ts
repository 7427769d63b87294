/** The keys a policy asks for: what turning DNSSEC on makes, and what a rollover to the policy brings in. */
import { DNSSEC_ALGORITHMS, type DnssecPolicy } from '../../core/dnssec-policy';
import type { DnssecPublicKey, KeyFlags, KeyRole } from '../../store/types';
import { LIVE } from './key-material';

export interface WantedKey {
  algorithm: number;
  role: KeyRole;
  flags: KeyFlags;
}

/** A ZSK is never listed for the parent: only keys with the SEP flag go into CDS/CDNSKEY (RFC 7344 §4.1). */
export const forParent = (role: KeyRole): boolean => role !== 'zsk';

/** The roles of a policy's key set. */
export const rolesOf = (policy: DnssecPolicy): KeyRole[] => (policy.keys === 'csk' ? ['csk'] : ['ksk', 'zsk']);

/** The keys DNSSEC starts with: in use at once (the zone was unsigned, so no parent points anywhere yet). */
export function firstKeys(policy: DnssecPolicy): WantedKey[] {
  const algorithm = DNSSEC_ALGORITHMS[policy.algorithm];
  return rolesOf(policy).map((role) => ({ algorithm, role, flags: { ...LIVE, in_cds: forParent(role) } }));
}

/** Whether the zone's keys in use are of the policy's algorithm and set-up; if not, an algorithm rollover brings them there. */
export function keysMatch(keys: readonly DnssecPublicKey[], policy: DnssecPolicy): boolean {
  const live = keys.filter((k) => k.state !== 'removed' && k.state !== 'retired');
  const roles = new Set(live.map((k) => k.role));
  const wanted = rolesOf(policy);
  return live.every((k) => k.algorithm === DNSSEC_ALGORITHMS[policy.algorithm]) && wanted.every((r) => roles.has(r)) && [...roles].every((r) => wanted.includes(r));
}
