/**
 * Fresh signatures for secondaries. Online answers are always signed with a current window,
 * but a secondary serves the signatures of its last transfer until the serial changes, and
 * those expire 13–14 days after it (sign.ts). A signed zone whose serial has not changed for
 * a week therefore gets a new one (as BIND and Knot bump the serial when they re-sign), and
 * the usual NOTIFY and transfer follow. Run by every DNS server; the check is repeated
 * under the zone's lock, so several nodes sharing a database bump a zone once.
 */
import { createChangeSets } from '../../services/change-sets';
import type { ZoneEvents } from '../../services/events';
import type { DomainRow, Store } from '../../store/types';

export const RESIGN_AFTER_MS = 7 * 86_400_000;
/** How often zones are checked; well under the week, so a bump is never far late. */
export const REFRESH_EVERY_MS = 3_600_000;

const due = (d: DomainRow, now: Date) => d.dnssec_enabled && Date.parse(d.updated_at) <= now.getTime() - RESIGN_AFTER_MS;

/** Bumps the serial of every signed zone unchanged for a week; returns the zones bumped. */
export async function refreshSignedZones(store: Store, events: ZoneEvents, now = new Date()): Promise<DomainRow[]> {
  const bumped: DomainRow[] = [];
  const changes = createChangeSets(store, events, { maxRecords: Infinity });
  const actor = { username: 'zonedeck', credential: 'system' };
  for (const candidate of (await store.domains.all()).filter((d) => due(d, now))) {
    // A change set of its own (source `dnssec`), so the history explains every serial.
    const { change, zone } = await changes
      .apply(async (tx) => (await tx.domains.byId(candidate.id)) ?? Promise.reject(new Error('gone')), { source: 'dnssec', actor, comment: 'weekly re-signing: a new serial so secondaries fetch fresh signatures' }, (edit) => {
        edit.touch = due(edit.zone, now);
      })
      .catch(() => ({ change: null, zone: null }));
    if (change?.id && zone) bumped.push(zone);
  }
  return bumped;
}
