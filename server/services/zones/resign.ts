/**
 * Fresh signatures for secondaries. Online answers are always signed with a current window,
 * but a secondary serves the signatures of its last transfer until the serial changes, and
 * those expire 13–14 days after it (sign.ts). A signed zone whose serial has not changed for
 * a week therefore gets a new one (as BIND and Knot bump the serial when they re-sign), and
 * the usual NOTIFY and transfer follow. Likewise a zone whose CDS/CDNSKEY delete form has been
 * published its time gets a serial without it. Run by every DNS server; the check is repeated
 * under the zone's lock, so several nodes sharing a database bump a zone once.
 * It runs on the main thread (server/main.ts), through the change sets every other write uses.
 */
import { ZoneJobError } from '../../background';
import type { ChangeSets } from '../changes/change-sets';
import type { DomainRow, ReadStore } from '../../store/types';
import { DELETE_SIGNAL_MS, deleteSignalEnd } from '../dnssec/key-material';

export const RESIGN_AFTER_MS = 7 * 86_400_000;
/** How often zones are checked; well under the week, so a bump is never far late. */
export const RESIGN_EVERY_MS = 3_600_000;

const resign = (d: DomainRow, now: Date) => d.dnssec_enabled && Date.parse(d.updated_at) <= now.getTime() - RESIGN_AFTER_MS;

/**
 * The CDS/CDNSKEY delete form's time is up (dnssec/cds.ts) and the zone has not changed since:
 * a new serial takes it out of the zone here, on the other nodes and at the secondaries.
 */
const withdraw = (d: DomainRow, now: Date) => {
  const end = deleteSignalEnd(d);
  return end !== null && end <= now.getTime() && Date.parse(d.updated_at) < end;
};

const COMMENTS = {
  resign: 'weekly re-signing: a new serial so secondaries fetch fresh signatures',
  withdraw: `the CDS/CDNSKEY delete signal (RFC 8078 §4) is withdrawn ${DELETE_SIGNAL_MS / 86_400_000} days after DNSSEC was turned off`,
};

/**
 * Bumps the serial of every signed zone unchanged for a week, and of every zone whose delete
 * signal has run its time; returns the zones bumped. A zone that fails is reported to `onError`
 * with its name, and the other zones go on; the main thread runs this as the background job
 * "resign" (server/background.ts), which logs and counts each failure and tries again after 30 s,
 * then with backoff, long before the secondaries' signatures expire (13 days after the last
 * serial; /readyz says "degraded" 3 days before).
 */
export async function refreshSignedZones(store: ReadStore, changes: ChangeSets, now = new Date(), onError?: (zone: string, err: unknown) => void): Promise<DomainRow[]> {
  const bumped: DomainRow[] = [];
  const actor = { username: 'zonedeck', credential: 'system' };
  for (const candidate of await store.domains.all()) {
    const why = resign(candidate, now) ? 'resign' : withdraw(candidate, now) ? 'withdraw' : null;
    if (!why) continue;
    const due = why === 'resign' ? resign : withdraw;
    // A change set of its own (source `dnssec`), so the history explains every serial.
    const { change, zone } = await changes
      .update(
        async (tx) => (await tx.domains.byId(candidate.id)) ?? Promise.reject(new Error('gone')),
        { source: 'dnssec', actor, comment: COMMENTS[why] },
        (u) => {
          u.touch = due(u.zone, now);
        },
      )
      .catch((err: unknown) => {
        // A zone deleted meanwhile has nothing to re-sign; anything else is a failure to report.
        if (!(err instanceof Error && err.message === 'gone')) onError?.(candidate.name, err);
        return { change: null, zone: null };
      });
    if (change?.id && zone) bumped.push(zone);
  }
  return bumped;
}

/** The background job (server/background.ts): every zone that failed, by name, as one error. */
export async function resignSignedZones(store: ReadStore, changes: ChangeSets, now = new Date()): Promise<void> {
  const failed: ZoneJobError[] = [];
  await refreshSignedZones(store, changes, now, (zone, err) => failed.push(new ZoneJobError(zone, err)));
  if (failed.length > 0) throw new AggregateError(failed, `re-signing failed for ${failed.length} zone(s)`);
}
