/**
 * The start: every hosted name is known to the index at once, then the zones load one after
 * another in the background while the loaded ones answer (those still loading are SERVFAIL, see
 * index/zone-index.ts). A zone the start-up snapshot holds as the store has it is built from the
 * file; any other is read from the store and filed in the new snapshot (startup-snapshot.ts).
 */
import { turn } from '../../core/pause';
import type { DomainRow } from '../../store/types';
import type { Zone } from '../index/zone';
import { putCatalog } from './catalog';
import { StartupSnapshot, type SnapshotReport } from './startup-snapshot';
import { hosted, type SyncDeps } from './sync-deps';
import { loadZone, readZoneRows } from './zone-load';

/** How the start-up load went (index/index-snapshot.ts). */
export interface StartupLoad extends SnapshotReport {
  /** Zones built from the snapshot. */
  restored: number;
  /** Zones read from the store (no snapshot, or changed since it was written). */
  read: number;
  /** Milliseconds the load took, from reading the first zone to the last one built. */
  ms: number;
}

/** The zones of the start, whole rows (they are built from them), and the catalog's serial read before them. */
export interface StartingZones {
  serial: number;
  rows: DomainRow[];
}

/**
 * Reads the zones to load and tells the index every hosted name at once. Whole rows, in one read:
 * the start reads every zone anyway.
 */
export async function readStartingZones(deps: SyncDeps): Promise<StartingZones> {
  const serial = deps.catalog ? await deps.store.catalog.serial() : 0;
  const rows = (await deps.store.domains.all()).filter((d) => hosted(deps, d));
  deps.index.expect(rows.map((d) => d.name));
  deps.hooks.loading?.({ loaded: 0, total: rows.length });
  return { serial, rows };
}

/**
 * Loads every zone of the start, then settles the index and serves the catalog. `written` is
 * handed, whatever happens, what puts the new snapshot on disk (apart from the load: the changes
 * waiting behind it do not wait for the disk), or undefined when none is written.
 */
export async function loadAtStart(deps: SyncDeps, start: StartingZones, snapshotPath: string | undefined, report: StartupLoad, written: (closing: Promise<void> | undefined) => void): Promise<void> {
  const { hooks } = deps;
  const total = start.rows.length;
  const began = performance.now();
  let snapshot: StartupSnapshot | null = null;
  let whole = false;
  try {
    if (snapshotPath) snapshot = await StartupSnapshot.open(deps.store, snapshotPath, report, (fault, message) => hooks.snapshotFault?.(fault, message));
    let yielded = Date.now();
    let reported = yielded;
    for (let i = 0; i < total; i++) {
      // One zone that cannot be read now is reported and left to the next reconcile; the others load.
      await loadOne(deps, start.rows[i]!, snapshot, report).catch((err: unknown) => hooks.onError?.(err));
      const now = Date.now();
      // Small zones never reach a slice's yield, and the store's reads resolve without a turn of the
      // event loop: give the questions waiting on the socket their turn every few milliseconds, so
      // the zones already loaded answer while the rest load.
      if (now - yielded >= 5) {
        await turn();
        yielded = Date.now();
      }
      if (now - reported >= 250) {
        reported = now;
        hooks.loading?.({ loaded: i + 1, total });
      }
    }
    deps.index.settle();
    putCatalog(deps, start.serial, start.rows, false);
    report.ms = Math.round(performance.now() - began);
    hooks.loading?.({ loaded: total, total });
    whole = true;
  } finally {
    if (snapshot && !whole) snapshot.abandon();
    written(snapshot && whole ? snapshot.close(report.read) : undefined);
  }
}

/** A zone of the start: from the snapshot when it holds the zone as the store has it, else from the store. */
async function loadOne(deps: SyncDeps, domain: DomainRow, snapshot: StartupSnapshot | null, report: StartupLoad): Promise<void> {
  if (!snapshot) {
    await loadZone(deps, domain);
    report.read++;
    return;
  }
  const entry = snapshot.find(domain);
  if (entry) {
    try {
      const old = snapshot.old!;
      await loadZone(
        deps,
        domain,
        (zone) =>
          old.read(
            entry,
            (rel, rows) => zone.replaceName(rel, rows),
            (rel, buf, start, end) => zone.restoreName(rel, buf, start, end),
            turn,
          ),
        // The entries take less room than the block that holds them with their names (the index trims the rest).
        Math.min(entry.length, 1 << 20),
      );
      report.restored++;
      snapshot.restored(entry);
      return;
    } catch (err) {
      // A damaged block: this zone comes from the store, like one the snapshot does not hold.
      snapshot.fault((err as Error).message);
    }
  }
  const w = snapshot.begin(domain);
  const fill = (zone: Zone) =>
    readZoneRows(deps.store, domain, (rel, rows) => {
      zone.replaceName(rel, rows);
      // What the name became: its entry of the index (most names), else its rows.
      if (w !== null) snapshot.file(w, rel, rows, zone);
    });
  try {
    await loadZone(deps, domain, fill);
  } catch (err) {
    snapshot.drop();
    throw err;
  }
  report.read++;
  snapshot.end();
}
