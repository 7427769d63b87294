/** How the pool pages name policies, fallbacks, check kinds and member states. */
import type { CheckKind, MemberState, PoolFallback, PoolMember, PoolPolicy } from '../../lib/api-types';

export const POLICY_WORDS: Record<PoolPolicy, { label: string; help: string }> = {
  failover: { label: 'Failover', help: 'The healthy members of the best (lowest) priority; the next priority only when none of those is up.' },
  'all-healthy': { label: 'All healthy', help: 'Every member that is up.' },
  weighted: { label: 'Weighted', help: 'One healthy member per answer, chosen in proportion to its weight.' },
};

export const FALLBACK_WORDS: Record<PoolFallback, { label: string; help: string }> = {
  all: { label: 'Answer every member', help: 'When no member is up, answer them all: a chance beats no answer.' },
  none: { label: 'Answer nothing', help: 'When no member is up, the name has no address (NODATA).' },
};

export const KIND_WORDS: Record<CheckKind, string> = {
  tcp: 'TCP connect',
  http: 'HTTP request',
  https: 'HTTPS request',
};

export const STATE_TONE: Record<MemberState, 'success' | 'danger' | 'neutral'> = { up: 'success', down: 'danger', unknown: 'neutral' };

export const STATE_LABEL: Record<MemberState, string> = { up: 'Up', down: 'Down', unknown: 'Not checked yet' };

/** "2 of 3 up". */
export function upCount(members: readonly Pick<PoolMember, 'state'>[]): string {
  const up = members.filter((m) => m.state === 'up').length;
  return `${up} of ${members.length} up`;
}

/** An address in a sentence: IPv6 as written, IPv4 as is. */
export function transitionText(t: { address: string; from: MemberState; to: MemberState }): string {
  if (t.to === 'down') return `${t.address} went down`;
  if (t.to === 'up') return t.from === 'unknown' ? `${t.address} is up (first checks)` : `${t.address} came back up`;
  return `${t.address} is no longer judged (${t.from} before)`;
}

/** "3 failures", "1 failure"; "…" while a box is still empty. */
export function plural(n: number | string, word: string): string {
  const t = String(n).trim();
  return t === '' ? '…' : `${t} ${word}${t === '1' ? '' : 's'}`;
}
