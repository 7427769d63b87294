/**
 * The parent, as a rollover sees it. A step that needs the parent (a KSK or CSK replaced) goes on
 * only once the parent serves the DS of the new key, seen twice a DS TTL (plus the propagation delay)
 * apart: by then no cache holds a DS set from before. Failing closed: no answer, a SERVFAIL, a set
 * without the new DS or a lookup that cannot be made (no RESOLVER) never advances a step.
 *
 * - A parent hosted here with the same owner (the same user, or the same team) is read from the
 *   store, and kept by zonedeck itself: whenever the child's CDS set changes, the parent's DS set at
 *   the child follows as a change set in the parent's history (source `dnssec`), as deSEC does for
 *   zones it holds on both sides. The delegation's NS set is added with it when the parent has none.
 * - Any other parent is asked through RESOLVER, as the check from outside asks: the resolver fetches
 *   the DS set from the parent's own name servers, and an answer from its cache can only be older,
 *   which delays a step and never hastens one.
 */
import { APEX } from '../../core/domain-name';
import type { HostPort } from '../../core/host-port';
import type { DnssecPublicKey, DnssecWatch, DomainRow, ServiceStore } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import { askDsSet } from '../checks/dns-questions';
import { DIGEST_SHA256 } from './key-material';

/** What one look at the parent found: its DS set and that set's TTL, or why nothing was learnt. */
export interface ParentLook {
  ds: string[] | null;
  ttl: number;
  error: string | null;
  /** The parent zone when it is hosted here with the same owner. */
  hosted: string | null;
}

/** The child's name relative to its parent zone (`sub` of `sub.example.com` in `example.com`). */
const relativeName = (child: string, parent: string): string => child.slice(0, -(parent.length + 1));

/** DS rdata as a parent serves it for a key: `tag algorithm 2 DIGEST`. */
export const dsOf = (k: DnssecPublicKey): string => `${k.key_tag} ${k.algorithm} ${DIGEST_SHA256} ${k.ds_digest.toUpperCase()}`;

const normalDs = (d: string) =>
  d
    .trim()
    .split(/\s+/)
    .map((x, i) => (i === 3 ? x.toUpperCase() : x))
    .join(' ');

/** The closest enclosing zone hosted here with the same owner (the same team, or the same user outside teams). */
export async function hostedParent(store: Pick<ServiceStore, 'domains'>, child: DomainRow): Promise<DomainRow | null> {
  const labels = child.name.split('.');
  for (let i = 1; i < labels.length; i++) {
    const name = labels.slice(i).join('.');
    const parent = await store.domains.byName(name);
    if (!parent) continue;
    const sameOwner = child.team_id ? parent.team_id === child.team_id : !parent.team_id && parent.user_id === child.user_id;
    return sameOwner && parent.kind !== 'secondary' ? parent : null;
  }
  return null;
}

/** Looks at the parent once: the hosted parent's stored DS set, or what RESOLVER returns. */
export async function lookAtParent(store: ServiceStore, child: DomainRow, resolver: HostPort | null): Promise<ParentLook> {
  const parent = await hostedParent(store, child);
  if (parent) {
    const rel = relativeName(child.name, parent.name);
    const rows = (await store.records.atName(parent.id, rel)).filter((r) => r.record_type === 'DS' && !r.disabled);
    return { ds: rows.map((r) => normalDs(r.content)), ttl: Math.max(0, ...rows.map((r) => r.ttl)), error: null, hosted: parent.name };
  }
  if (!resolver) return { ds: null, ttl: 0, error: 'RESOLVER is not set, so the parent cannot be asked; set it to a recursive resolver', hosted: null };
  const got = await askDsSet(resolver, child.name, 3000);
  if (!got) return { ds: null, ttl: 0, error: `the resolver ${resolver.host}:${resolver.port} gave no usable answer for the DS set`, hosted: null };
  return { ds: got.ds.map(normalDs), ttl: got.ttl, error: null, hosted: null };
}

/**
 * The watch after a look: the first sighting of every wanted DS starts the clock, a later one at least
 * a DS TTL plus `propagationS` after it confirms; a set without them starts over, and a look that
 * learnt nothing keeps what was seen (it neither confirms nor disproves). `confirmed` once it holds.
 */
export function judgeLook(
  watch: Pick<DnssecWatch, 'seen_at' | 'seen_ttl'>,
  look: ParentLook,
  wanted: readonly string[],
  now: Date,
  propagationS: number,
): { seen_at: string | null; seen_ttl: number | null; confirmed: boolean; recheckAt: number } {
  const recheck = now.getTime() + Math.min(300, Math.max(2, propagationS)) * 1000;
  if (look.ds === null) return { seen_at: watch.seen_at, seen_ttl: watch.seen_ttl, confirmed: false, recheckAt: recheck };
  const served = new Set(look.ds.map(normalDs));
  if (wanted.length === 0 || !wanted.every((d) => served.has(normalDs(d)))) return { seen_at: null, seen_ttl: null, confirmed: false, recheckAt: recheck };
  if (!watch.seen_at) {
    const due = now.getTime() + (look.ttl + propagationS) * 1000;
    return { seen_at: now.toISOString(), seen_ttl: look.ttl, confirmed: false, recheckAt: Math.min(recheck, due) };
  }
  // The longer of the two TTLs seen: a parent that raised it meanwhile is waited for in full.
  const ttl = Math.max(watch.seen_ttl ?? 0, look.ttl);
  const due = Date.parse(watch.seen_at) + (ttl + propagationS) * 1000;
  return { seen_at: watch.seen_at, seen_ttl: ttl, confirmed: now.getTime() >= due, recheckAt: Math.min(recheck, Math.max(due, now.getTime() + 1000)) };
}

/**
 * Keeps the DS set of a hosted parent at the child equal to the child's CDS set (none while the child
 * is unsigned), as one change set in the parent's history; nothing when they already match. What the
 * parent held and holds now when it changed, else null.
 */
export async function followInParent(
  store: ServiceStore,
  changes: ChangeSets,
  child: DomainRow,
  keys: readonly DnssecPublicKey[],
  dsTtl: number,
): Promise<{ parent: string; before: string[]; after: string[] } | null> {
  const parent = await hostedParent(store, child);
  if (!parent) return null;
  const wanted = child.dnssec_enabled ? keys.filter((k) => k.in_cds).map(dsOf) : [];
  const rel = relativeName(child.name, parent.name);
  const held = (await store.records.atName(parent.id, rel)).filter((r) => r.record_type === 'DS').map((r) => normalDs(r.content));
  if (held.length === wanted.length && wanted.every((d) => held.includes(d))) return null;
  const childNs = (await store.records.atName(child.id, APEX)).filter((r) => r.record_type === 'NS');
  const actor = { username: 'zonedeck', credential: 'system' };
  await changes.update(
    parent,
    { source: 'dnssec', actor, comment: wanted.length > 0 ? `the DS of ${child.name} follows its keys: ${wanted.join(', ')}` : `${child.name} is no longer signed: its DS is removed` },
    async (u) => {
      await u.draft.load([rel]);
      // A DS stands only beside the NS set of a delegation (RFC 4035 §2.4).
      if (wanted.length > 0 && u.draft.rrset(rel, 'NS').length === 0 && childNs.length > 0)
        u.draft.put(
          rel,
          'NS',
          childNs.map((r) => ({ content: r.content, ttl: r.ttl })),
          childNs[0]!.ttl,
        );
      u.draft.put(
        rel,
        'DS',
        wanted.map((content) => ({ content, ttl: dsTtl })),
        dsTtl,
      );
    },
  );
  return { parent: parent.name, before: held, after: wanted };
}
