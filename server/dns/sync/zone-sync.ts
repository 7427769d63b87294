/**
 * Keeps the in-memory zone index equal to the store. It puts together the sync's parts, each a
 * module of its own with its dependencies passed in (SyncDeps), and runs them in one queue
 * (sync-queue.ts), so that each reads the store only after the one before it is applied:
 *
 * - the start (startup-load.ts): every zone loaded, from the start-up snapshot where it still
 *   holds the zone (startup-snapshot.ts), else from the store;
 * - a change event (apply-events.ts): this process's own, and on PostgreSQL every other node's too
 *   (other-nodes.ts), the changed names read back from the store; a signed zone's keys are read
 *   with it, and again whenever the zone itself changes (DNSSEC on/off, rollover);
 * - the catalog zone (catalog.ts, with CATALOG_ZONE), built again whenever a zone appears or goes;
 * - the reconcile every `reconcileMs` (reconcile.ts): serials compared as a safety net for
 *   anything missed;
 * - the snapshot's refresh every `refreshMs` once a zone changed (snapshot-cycle.ts), off the queue.
 */
import type { ZoneChange, ZoneEvents } from '../../services/changes/events';
import type { ReadStore } from '../../store/types';
import type { ZoneIdentity } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';
import { applyChange } from './apply-events';
import { CatalogRebuild } from './catalog';
import { reconcile } from './reconcile';
import { SNAPSHOT_REFRESH_MS, SnapshotCycle } from './snapshot-cycle';
import { loadAtStart, readStartingZones, type StartupLoad } from './startup-load';
import { hosted, type SnapshotRefresh, type SyncDeps, type ZoneSyncHooks } from './sync-deps';
import { SyncQueue } from './sync-queue';

export interface ZoneSync {
  stop(): void;
  /** Resolves when every zone of the start is loaded. */
  loaded: Promise<void>;
  /** How the start-up load went, once `loaded` resolved (`written` once `snapshotWritten` did). */
  startup: StartupLoad;
  /** Resolves when the start-up snapshot is on disk (or failed, or none was written). */
  snapshotWritten: Promise<void>;
  /** Resolves once every event received so far is applied (for tests and shutdown). */
  settled(): Promise<void>;
  /** Compares serials with the store and reloads what differs. */
  reconcile(): Promise<void>;
  /**
   * Files anew the zones changed since the snapshot was written, so that the next start builds
   * them from it too (null: no snapshot is kept). Runs by itself every `refreshMs` once a zone
   * changed; a refresh already running is joined, not doubled.
   */
  refreshSnapshot(): Promise<SnapshotRefresh | null>;
}

export interface ZoneSyncOptions {
  store: ReadStore;
  /** The zone events of this process (and, through other-nodes.ts, of every other node). */
  events: ZoneEvents;
  /** The index kept equal to the store. */
  index: ZoneIndex;
  /** Who the zones' SOA names, and the ALIAS watcher they tell. */
  identity: ZoneIdentity;
  hooks?: ZoneSyncHooks;
  /** How often serials are compared with the store (default 10 s). */
  reconcileMs?: number;
  /** The catalog zone to serve (RFC 9432), listing every zone of the store. */
  catalog?: string;
  /** The start-up snapshot's file (index-snapshot.ts); none: every zone is read from the store. */
  snapshot?: string;
  /** How often the snapshot is refreshed once a zone changed (default SNAPSHOT_REFRESH_MS). */
  refreshMs?: number;
  /** Zones read at a time when every zone is compared (default SERIAL_SLICE, zone-list.ts). */
  serialSlice?: number;
}

export async function syncZones(options: ZoneSyncOptions): Promise<ZoneSync> {
  const given = options.hooks ?? {};
  let cycle: SnapshotCycle | null = null;
  const hooks: ZoneSyncHooks = {
    ...given,
    // A snapshot not written is tried again by the cycle's next turn, whether or not a zone changes meanwhile.
    snapshotFault(fault, message) {
      given.snapshotFault?.(fault, message);
      if (fault === 'write_failed') cycle?.changed();
    },
  };
  const deps: SyncDeps = { store: options.store, index: options.index, identity: options.identity, hooks, catalog: options.catalog, serialSlice: options.serialSlice };
  const queue = new SyncQueue(hooks.onError);
  const catalog = new CatalogRebuild(deps, queue);

  // The names are known at once; the zones load behind them, in the queue: events wait there
  // behind the load, and the caller may wait a little for small installs.
  const start = await readStartingZones(deps);
  const startup: StartupLoad = { restored: 0, read: 0, fault: null, written: 0, ms: 0 };
  let snapshotDone!: (closing: Promise<void> | undefined) => void;
  const snapshotWritten = new Promise<void>((r) => (snapshotDone = r));
  const loaded = queue.push(() => loadAtStart(deps, start, options.snapshot, startup, snapshotDone));
  const snapshot = options.snapshot ? new SnapshotCycle(deps, options.snapshot, snapshotWritten) : null;
  cycle = snapshot;

  const onChange = async (change: ZoneChange) => {
    if (!hosted(deps, change.domain)) return;
    snapshot?.changed();
    if (await applyChange(deps, change)) catalog.changed();
  };
  const reconcileNow = () => reconcile(deps, () => snapshot?.changed());

  const unsubscribe = options.events.subscribe((change) => void queue.push(() => onChange(change)));
  const timer = setInterval(() => void queue.push(reconcileNow), options.reconcileMs ?? 10_000);
  timer.unref();
  const refreshTimer = snapshot ? setInterval(() => snapshot.tick(), options.refreshMs ?? SNAPSHOT_REFRESH_MS) : null;
  refreshTimer?.unref();

  return {
    loaded,
    startup,
    snapshotWritten,
    stop() {
      unsubscribe();
      clearInterval(timer);
      if (refreshTimer) clearInterval(refreshTimer);
    },
    settled: () => queue.settled(),
    reconcile: () => queue.push(reconcileNow),
    refreshSnapshot: () => (snapshot ? snapshot.refresh() : Promise.resolve(null)),
  };
}
