/** What the check from outside says in words: the badge, the DS verdict and each server's state. */
import type { Delegation } from './get-delegation';

type Tone = 'neutral' | 'success' | 'warning' | 'info' | 'danger';

export const DS_WORDS: Record<Delegation['ds_status'], { text: string; tone: Tone }> = {
  unsigned: { text: 'Unsigned', tone: 'neutral' },
  missing: { text: 'DS missing at parent', tone: 'warning' },
  match: { text: 'DS matches', tone: 'success' },
  mismatch: { text: 'DS mismatch — would break validation', tone: 'danger' },
  unknown: { text: 'Not known', tone: 'neutral' },
};

export const SERVER_WORDS: Record<Delegation['nameservers'][number]['status'], { text: string; tone: Tone }> = {
  in_sync: { text: 'In sync', tone: 'success' },
  behind: { text: 'Behind', tone: 'warning' },
  ahead: { text: 'Ahead (not our copy)', tone: 'danger' },
  no_answer: { text: 'No answer', tone: 'danger' },
};

/**
 * The state of the delegation as one badge: active once the parent's own server lists exactly our
 * name servers; never active through a resolver that does not recurse.
 */
export function delegationState(d: Delegation): { text: string; tone: Tone } {
  if (d.resolver === null) return { text: 'Not checked', tone: 'neutral' };
  if (d.resolver_status === 'not_recursive') return { text: 'Resolver does not recurse', tone: 'danger' };
  if (d.parent === null) return { text: 'No answer', tone: 'warning' };
  return d.ns_match ? { text: 'Active', tone: 'success' } : { text: 'Pending', tone: 'warning' };
}
