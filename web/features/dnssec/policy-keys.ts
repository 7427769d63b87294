/**
 * Whether a zone's keys are what its policy asks for. When they are not (a new algorithm or key
 * setup was just saved), the server starts an algorithm rollover on its next look at the zone: the
 * card says so and keeps asking until the rollover shows.
 */
import type { DnssecKey, DnssecView } from '../../lib/api-types';

const ROLES: Record<DnssecView['policy']['keys'], DnssecKey['role'][]> = { csk: ['csk'], 'ksk-zsk': ['ksk', 'zsk'] };

export function keysMatchPolicy(view: Pick<DnssecView, 'keys' | 'policy'>): boolean {
  const live = view.keys.filter((k) => k.state !== 'removed');
  if (live.length === 0) return true;
  const roles = new Set(live.map((k) => k.role));
  const want = ROLES[view.policy.keys];
  return live.every((k) => k.algorithm_name === view.policy.algorithm) && roles.size === want.length && want.every((r) => roles.has(r));
}

/** A signed zone whose keys differ from its policy, with no rollover running yet: one is about to start. */
export const rolloverPending = (view: DnssecView): boolean => view.dnssec_enabled && view.rollover === null && !keysMatchPolicy(view);
