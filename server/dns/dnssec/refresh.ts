/**
 * Fresh signatures for secondaries. Online answers are always signed with a current window,
 * but a secondary serves the signatures of its last transfer until the serial changes, and
 * those expire 13–14 days after it (sign.ts). A signed zone whose serial has not changed for
 * a week therefore gets a new one (as BIND and Knot bump the serial when they re-sign), and
 * the usual NOTIFY and transfer follow. Run by every DNS server; the check is repeated
 * under the zone's lock, so several nodes sharing a database bump a zone once.
 */
import { touchZone } from '../../services/zones';
import type { ZoneEvents } from '../../services/events';
import type { DomainRow, Store } from '../../store/types';

export const RESIGN_AFTER_MS = 7 * 86_400_000;
/** How often zones are checked; well under the week, so a bump is never far late. */
export const REFRESH_EVERY_MS = 3_600_000;

const due = (d: DomainRow, now: Date) => d.dnssec_enabled && Date.parse(d.updated_at) <= now.getTime() - RESIGN_AFTER_MS;

/** Bumps the serial of every signed zone unchanged for a week; returns the zones bumped. */
export async function refreshSignedZones(store: Store, events: ZoneEvents, now = new Date()): Promise<DomainRow[]> {
  const bumped: DomainRow[] = [];
  for (const candidate of (await store.domains.all()).filter((d) => due(d, now))) {
    const zone = await store.transaction(async (tx) => {
      if (!(await tx.domains.byId(candidate.id))) return null;
      const locked = await tx.domains.lock(candidate.id);
      return due(locked, now) ? touchZone(tx, locked, now) : null;
    });
    if (!zone) continue;
    bumped.push(zone);
    events.emit({ kind: 'zone-upserted', domain: zone });
  }
  return bumped;
}
