/**
 * Keeps the in-memory zone index equal to the store: a full load at start, then change
 * events (each applied in order, reading the changed names back from the store) — this
 * process's own, and on PostgreSQL every other node's too (other-nodes.ts) — and a periodic
 * comparison of serials as a safety net for anything missed. A signed zone's keys are read
 * with it, and again whenever the zone itself changes (DNSSEC on/off, rollover). With a
 * catalog zone (CATALOG_ZONE), it is built again whenever a zone appears or goes.
 */
import { turn } from '../../core/pause';
import { serialAtOrAfter } from '../../core/soa';
import type { ZoneChange, ZoneEvents } from '../../services/changes/events';
import type { DomainRow, RecordRow, ReadStore, ServedRecord, ZoneSerial } from '../../store/types';
import { CATALOG_ID, catalogZone, listsExactly } from '../transfer/catalog-zone';
import { signingKey } from '../dnssec/keys';
import { Zone, type ZoneIdentity } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';
import { SnapshotReader, SnapshotWriter, type SnapshotEntry } from '../index/index-snapshot';

/** Past this many changed names, a zone is reloaded whole rather than name by name. */
const RELOAD_ABOVE = 500;
/**
 * Records read, and names built, between two yields of a zone load. On SQLite a slice comes as one
 * JSON text, and a string has a ceiling (V8: ~536 million characters). A record's data is at most
 * 65,535 octets (record-codec.ts refuses more), at most 4 characters an octet as text (\DDD) and 5
 * in JSON: ~330,000 characters a record, so a slice of 1,000 stays under 340 million whatever a
 * tenant stores.
 */
const LOAD_SLICE = 1000;
/** Zones read at a time by the periodic comparison and the catalog, with a turn for the questions waiting between two. */
const SERIAL_SLICE = 1000;
/** How often the snapshot is brought up to date while zones change (see `refreshSnapshot`). */
export const SNAPSHOT_REFRESH_MS = 10 * 60_000;

/**
 * Every zone's id, name, serial and creation time (`domains.serials`), `limit` zones at a time by
 * id: a slice per step, so that the caller can give the event loop a turn between two.
 */
export async function* zoneSlices(store: Pick<ReadStore, 'domains'>, limit = SERIAL_SLICE): AsyncGenerator<ZoneSerial[]> {
  for (let after = 0; ; ) {
    const slice = await store.domains.serials(after, limit);
    if (slice.length > 0) yield slice;
    if (slice.length < limit) return;
    after = slice.at(-1)!.id;
  }
}

export interface ZoneSyncHooks {
  /** A zone's serial changed (or the zone appeared): time to NOTIFY secondaries. */
  serialChanged?(zone: Zone): void;
  /** A zone was created here: time for a first delegation check. */
  zoneAdded?(domain: DomainRow): void;
  /** Start-up progress: zones loaded so far of all hosted (called as they load, and once at the end). */
  loading?(progress: LoadProgress): void;
  /** The snapshot was brought up to date by its timer. */
  snapshotRefreshed?(refresh: SnapshotRefresh): void;
  onError?(err: unknown): void;
}

/** Takes a name's rows, lent: kept by no one after the call. */
type OnName = (rel: string, rows: readonly ServedRecord[]) => void;


/** How the start-up load went (index-snapshot.ts). */
export interface StartupLoad {
  /** Zones built from the snapshot. */
  restored: number;
  /** Zones read from the store (no snapshot, or changed since it was written). */
  read: number;
  /** Why the snapshot was not read or not written, when it was not. */
  fault: string | null;
  /** Zones in the snapshot written at the end of this load (0: none written). */
  written: number;
  /** Milliseconds the load took, from reading the first zone to the last one built. */
  ms: number;
}

/** How a refresh of the snapshot went (`ZoneSync.refreshSnapshot`). */
export interface SnapshotRefresh {
  /** Zones whose blocks were still good, copied as they were. */
  kept: number;
  /** Zones read from the store and filed anew. */
  read: number;
  /** Whether a new file was put in place (false: the old one already held every zone as stored). */
  written: boolean;
}

export interface LoadProgress {
  loaded: number;
  total: number;
}

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
  /** The catalog zone to serve (RFC 9432), listing every zone of the store. */
  catalog?: string;
  /** The start-up snapshot's file (index-snapshot.ts); none: every zone is read from the store. */
  snapshot?: string;
  /** How often the snapshot is refreshed once a zone changed (default SNAPSHOT_REFRESH_MS). */
  refreshMs?: number;
  /** Zones read at a time when every zone is compared (default SERIAL_SLICE). */
  serialSlice?: number;
}

export async function syncZones(
  store: ReadStore,
  events: ZoneEvents,
  index: ZoneIndex,
  identity: ZoneIdentity,
  hooks: ZoneSyncHooks = {},
  reconcileMs = 10_000,
  options: ZoneSyncOptions = {},
): Promise<ZoneSync> {
  const catalog = options.catalog;
  /** A hosted zone may not shadow the catalog (the API refuses the name; a node configured without it might not). */
  const hosted = (domain: { name: string }) => domain.name !== catalog;

  /** Signs the zone with its stored keys when DNSSEC is on; stops signing when off. */
  const loadKeys = async (zone: Zone, domain: DomainRow) => {
    const rows = domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : [];
    zone.setKeys(rows.map(signingKey));
  };

  /**
   * Reads a zone's served rows from the store in slices, yielding between them, and hands on each
   * name with its rows (in id order: a name's RRsets keep the order of their first row, as a
   * change makes them). The slices come by name (the index's order), so each name is whole as
   * soon as its rows are in.
   */
  const readStore = async (domain: DomainRow, onName: OnName) => {
    let group: ServedRecord[] = [];
    const build = () => {
      if (group.length > 1) group.sort((x, y) => x.id - y.id);
      onName(group[0]!.name, group);
      group = [];
    };
    for (let after: ServedRecord | null = null; ; ) {
      const rows = await store.records.served(domain.id, after, LOAD_SLICE);
      for (const r of rows) {
        if (group.length > 0 && group[0]!.name !== r.name) build();
        group.push(r);
      }
      if (rows.length < LOAD_SLICE) break;
      after = rows.at(-1)!;
      await turn();
    }
    if (group.length > 0) build();
  };

  /**
   * Builds a zone (`fill`: from the store unless given), reads its keys and swaps it into the
   * index whole: while a big zone is built, the DNS thread keeps answering from the zone as it
   * was. A fill that fails leaves the index as it was.
   */
  const load = async (domain: DomainRow, fill: (zone: Zone) => Promise<void> = (zone) => readStore(domain, (rel, rows) => zone.replaceName(rel, rows)), capacity?: number) => {
    const zone = new Zone(domain, [], identity, capacity);
    await fill(zone);
    await loadKeys(zone, domain);
    index.put(zone);
    return zone;
  };

  async function apply(change: ZoneChange): Promise<void> {
    const { domain } = change;
    if (!hosted(domain)) return;
    changedSince = true;
    const zone = index.get(domain.name);
    if (change.kind === 'zone-deleted') {
      if (zone?.id === domain.id) {
        index.remove(domain.name);
        catalogChanged();
      }
      return;
    }
    if (!zone || zone.id !== domain.id) {
      // A zone new to the index. Another node's message may come after this node already
      // deleted the zone itself: load only what the store still holds, as it is now.
      const stored = await store.domains.byId(domain.id);
      if (!stored) return;
      // Load first: `hook?.(await load())` would skip the load when no hook is given.
      const loaded = await load(stored);
      hooks.serialChanged?.(loaded);
      hooks.zoneAdded?.(stored);
      catalogChanged();
      return;
    }
    if (change.kind === 'zone-changed' && (change.reload || change.names.length > RELOAD_ABOVE)) {
      // A big change (an import), or one from another node that named too many names to list:
      // build the zone anew and swap it in whole.
      if (serialAtOrAfter(domain.serial_number, zone.domain.serial_number)) hooks.serialChanged?.(await load(domain));
      return;
    }
    // Read everything first, then change the zone in one synchronous step: an answer never
    // sees half of a change set, nor new records under the old serial.
    const rows: RecordRow[][] = [];
    if (change.kind === 'zone-changed') for (const name of change.names) rows.push((await store.records.atName(zone.id, name)).filter((r) => !r.disabled));
    const keys = change.kind === 'zone-changed' && change.keys && serialAtOrAfter(domain.serial_number, zone.domain.serial_number) && domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : null;
    if (change.kind === 'zone-changed') change.names.forEach((name, i) => zone.replaceName(name, rows[i]!));
    // Events can arrive after a newer reload; never step a serial back.
    if (serialAtOrAfter(domain.serial_number, zone.domain.serial_number)) {
      zone.setDomain(domain);
      if (change.kind === 'zone-changed' && change.keys) zone.setKeys((keys ?? []).map(signingKey));
    }
    hooks.serialChanged?.(zone);
  }

  // One chain: each change reads the store only after the previous one is applied, so the
  // last read of a name always reflects the last committed write.
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (task: () => Promise<void>) => {
    chain = chain.then(task).catch((err) => hooks.onError?.(err));
    return chain;
  };

  /**
   * Every hosted zone's id, name, serial and creation time, a slice at a time with a turn between
   * (one read of every row would hold the answers up: ~100 ms at 10,000 zones).
   */
  async function hostedSerials(): Promise<ZoneSerial[]> {
    const out: ZoneSerial[] = [];
    for await (const slice of zoneSlices(store, options.serialSlice)) {
      for (const z of slice) if (hosted(z)) out.push(z);
      await turn();
    }
    return out;
  }

  /**
   * The catalog's serial, then the zones: read in this order, the zones are at least as new as
   * the serial, so a secondary never holds a serial whose members it has not seen.
   */
  async function readCatalog(): Promise<{ serial: number; rows: ZoneSerial[] }> {
    const serial = catalog ? await store.catalog.serial() : 0;
    return { serial, rows: await hostedSerials() };
  }

  /** Serves the catalog at `serial` listing `rows`, unless it already does; NOTIFY when the serial moved. */
  function putCatalog(serial: number, rows: readonly ZoneSerial[], notify = true): void {
    if (!catalog) return;
    const current = index.get(catalog);
    if (current?.id === CATALOG_ID && current.domain.serial_number === serial && listsExactly(current, rows)) return;
    const zone = catalogZone(catalog, serial, rows, identity);
    index.put(zone);
    if (notify && current?.domain.serial_number !== serial) hooks.serialChanged?.(zone);
  }

  let catalogQueued = false;
  /** A zone appeared or went: build the catalog again once the events queued so far are applied. */
  function catalogChanged(): void {
    if (!catalog || catalogQueued) return;
    catalogQueued = true;
    void enqueue(async () => {
      catalogQueued = false;
      const { serial, rows } = await readCatalog();
      putCatalog(serial, rows);
    });
  }

  async function reconcile(): Promise<void> {
    const { serial, rows } = await readCatalog();
    const seen = new Set<string>();
    for (const listed of rows) {
      seen.add(listed.name);
      const zone = index.get(listed.name);
      if (zone && zone.id === listed.id && zone.domain.serial_number === listed.serial_number) continue;
      const domain = await store.domains.byId(listed.id);
      // Deleted since it was listed: gone from the index below (unless made again, under a later id).
      if (!domain) {
        seen.delete(listed.name);
        continue;
      }
      changedSince = true;
      const loaded = await load(domain);
      hooks.serialChanged?.(loaded);
    }
    for (const zone of [...index.all()]) if (!seen.has(zone.name) && zone.name !== catalog) index.remove(zone.name);
    putCatalog(serial, rows);
  }

  interface Snapshot {
    /** Each zone's content tag, read before any record of the start. */
    tags: Map<number, string>;
    old: SnapshotReader | null;
    /** The zones built from the old snapshot: their blocks go into the new one as they are, at the end. */
    kept: SnapshotEntry[];
    /** The new snapshot; null once writing it failed (the start goes on without one). */
    writer: SnapshotWriter | null;
  }

  /** The start's snapshot: the old one to read (when usable) and the new one to write. */
  async function openSnapshot(path: string): Promise<Snapshot | null> {
    let tags: Map<number, string>;
    let schema: string;
    try {
      // The tags first, then any record: records read after a tag are at least as new as it.
      tags = await store.records.contentTags();
      schema = await store.schemaVersion();
    } catch (err) {
      startup.fault = `the snapshot is not used: ${(err as Error).message}`;
      return null;
    }
    const opened = SnapshotReader.open(path, schema);
    if (typeof opened === 'string') startup.fault = opened;
    const old = typeof opened === 'string' ? null : opened;
    let writer: SnapshotWriter | null = null;
    try {
      writer = SnapshotWriter.create(path, schema);
    } catch (err) {
      // A data directory this process cannot write to: the old snapshot is still read.
      startup.fault = `the snapshot cannot be written: ${(err as Error).message}`;
    }
    return { tags, old, kept: [], writer };
  }

  /** Runs a step of writing the snapshot; a failure (a full disk) stops the writing, never the load. */
  function writing(snapshot: Snapshot, step: (w: SnapshotWriter) => void): void {
    if (!snapshot.writer) return;
    try {
      step(snapshot.writer);
    } catch (err) {
      stopWriting(snapshot, err);
    }
  }

  function stopWriting(snapshot: Snapshot, err: unknown): void {
    snapshot.writer?.abort();
    snapshot.writer = null;
    startup.fault = `the snapshot cannot be written: ${(err as Error).message}`;
  }

  /** A zone of the start: from the snapshot when it holds the zone as the store has it, else from the store. */
  async function startupLoad(domain: DomainRow, snapshot: Snapshot | null): Promise<void> {
    if (!snapshot) {
      await load(domain);
      startup.read++;
      return;
    }
    const tag = snapshot.tags.get(domain.id);
    const entry = snapshot.old?.find(domain.id, domain.name, tag);
    if (entry) {
      try {
        const old = snapshot.old!;
        await load(domain, (zone) =>
          old.read(
            entry,
            (rel, rows) => zone.replaceName(rel, rows),
            (rel, buf, start, end) => zone.restoreName(rel, buf, start, end),
            turn,
          ),
          // The entries take less room than the block that holds them with their names (the index trims the rest).
          Math.min(entry.length, 1 << 20),
        );
        startup.restored++;
        snapshot.kept.push(entry);
        return;
      } catch (err) {
        // A damaged block: this zone comes from the store, like one the snapshot does not hold.
        startup.fault = (err as Error).message;
      }
    }
    let w: SnapshotWriter | null = null;
    writing(snapshot, (writer) => void (tag !== undefined && writer.begin(domain.id, domain.name, tag) && (w = writer)));
    try {
      await load(domain, (zone) =>
        readStore(domain, (rel, rows) => {
          zone.replaceName(rel, rows);
          // What the name became: its entry of the index (most names), else its rows.
          // (Not through `writing`: no closure made per name.)
          if (w !== null && snapshot.writer !== null) {
            try {
              w.name(rel, rows, zone);
            } catch (err) {
              stopWriting(snapshot, err);
            }
          }
        }),
      );
    } catch (err) {
      writing(snapshot, (writer) => writer.drop());
      throw err;
    }
    startup.read++;
    writing(snapshot, (writer) => writer.end());
  }

  /**
   * Puts the new snapshot in place: the zones read from the store are in it already, the ones
   * built from the old snapshot are copied in now. When every zone came from the old one, that
   * file stays as it is (it holds them all).
   */
  async function closeSnapshot(snapshot: Snapshot): Promise<void> {
    const { writer: w, old, kept } = snapshot;
    try {
      if (w && old && startup.read === 0) {
        w.abort();
        startup.written = kept.length;
      } else if (w) {
        if (old) await old.copyTo(kept, w);
        await w.finish();
        startup.written = w.zones;
      }
    } catch (err) {
      stopWriting(snapshot, err);
    }
    old?.close();
  }

  /** Zones changed (an event applied, a reload) since the snapshot was last brought up to date. */
  let changedSince = false;
  let refreshing: Promise<SnapshotRefresh | null> | null = null;
  /** The zone built only to be filed: it tells no ALIAS watcher of itself, and is never served. */
  const filing: ZoneIdentity = { primary: identity.primary, hostmaster: identity.hostmaster };

  /**
   * Brings the snapshot up to date with the store, off the start: the tags first, then the
   * records, as at a start, so that rows filed under a tag are at least as new as it. A zone whose
   * block still matches its tag is copied as it is; any other is read from the store into a zone
   * of its own and filed from that. The zone being served is never filed: a write no event told of
   * would leave it behind its tag. Nothing is written when every zone still matches.
   */
  async function refresh(path: string): Promise<SnapshotRefresh> {
    await snapshotWritten;
    changedSince = false;
    const tags = await store.records.contentTags();
    const schema = await store.schemaVersion();
    const opened = SnapshotReader.open(path, schema);
    const old = typeof opened === 'string' ? null : opened;
    try {
      const kept: SnapshotEntry[] = [];
      const stale: ZoneSerial[] = [];
      for (const listed of await hostedSerials()) {
        const tag = tags.get(listed.id);
        // A zone made after the tags were read waits for the next refresh (or start).
        if (tag === undefined) continue;
        const entry = old?.find(listed.id, listed.name, tag);
        if (entry) kept.push(entry);
        else stale.push(listed);
      }
      if (old && stale.length === 0) return { kept: kept.length, read: 0, written: false };
      const writer = SnapshotWriter.create(path, schema);
      try {
        for (const listed of stale) {
          const domain = await store.domains.byId(listed.id);
          // Deleted since: nothing to file.
          if (!domain || !writer.begin(domain.id, domain.name, tags.get(domain.id)!)) continue;
          const zone = new Zone(domain, [], filing);
          await readStore(domain, (rel, rows) => {
            zone.replaceName(rel, rows);
            writer.name(rel, rows, zone);
          });
          writer.end();
          await turn();
        }
        if (old) await old.copyTo(kept, writer);
        await writer.finish();
      } catch (err) {
        writer.abort();
        throw err;
      }
      return { kept: kept.length, read: stale.length, written: true };
    } catch (err) {
      // Tried again at the next turn of the timer.
      changedSince = true;
      throw err;
    } finally {
      old?.close();
    }
  }

  function refreshSnapshot(): Promise<SnapshotRefresh | null> {
    const path = options.snapshot;
    if (!path) return Promise.resolve(null);
    refreshing ??= refresh(path).finally(() => (refreshing = null));
    return refreshing;
  }

  // The start: every hosted name is known at once, then the zones load one after another in the
  // background while the loaded ones answer (those still loading are SERVFAIL, see zone-index.ts).
  // Events wait in the chain behind the load; the caller may wait a little for small installs.
  // Whole rows here (the zones are built from them), in one read: the start reads every zone anyway.
  const initialSerial = catalog ? await store.catalog.serial() : 0;
  const initial = { serial: initialSerial, rows: (await store.domains.all()).filter(hosted) };
  index.expect(initial.rows.map((d) => d.name));
  const total = initial.rows.length;
  hooks.loading?.({ loaded: 0, total });
  let reported = Date.now();
  const startup: StartupLoad = { restored: 0, read: 0, fault: null, written: 0, ms: 0 };
  let snapshotDone!: (done: Promise<void> | undefined) => void;
  const snapshotWritten = new Promise<void>((r) => (snapshotDone = r));
  const loaded = enqueue(async () => {
    const began = performance.now();
    const snapshot = options.snapshot ? await openSnapshot(options.snapshot) : null;
    let whole = false;
    try {
      let yielded = Date.now();
      for (let i = 0; i < total; i++) {
        // One zone that cannot be read now is reported and left to the next reconcile; the others load.
        await startupLoad(initial.rows[i]!, snapshot).catch((err: unknown) => hooks.onError?.(err));
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
      index.settle();
      putCatalog(initial.serial, initial.rows, false);
      startup.ms = Math.round(performance.now() - began);
      hooks.loading?.({ loaded: total, total });
      whole = true;
    } finally {
      if (!whole) snapshot?.writer?.abort();
      // Put on disk apart from the chain: the changes waiting behind the load do not wait for it.
      snapshotDone(snapshot && whole ? closeSnapshot(snapshot) : (snapshot?.old?.close(), undefined));
    }
  });

  const unsubscribe = events.subscribe((change) => void enqueue(() => apply(change)));
  const timer = setInterval(() => void enqueue(reconcile), reconcileMs);
  timer.unref();
  const refreshTimer = setInterval(() => {
    if (!changedSince || refreshing) return;
    refreshSnapshot().then(
      (r) => r && hooks.snapshotRefreshed?.(r),
      (err: unknown) => hooks.onError?.(err),
    );
  }, options.refreshMs ?? SNAPSHOT_REFRESH_MS);
  refreshTimer.unref();

  return {
    loaded,
    startup,
    snapshotWritten,
    stop() {
      unsubscribe();
      clearInterval(timer);
      clearInterval(refreshTimer);
    },
    settled: () => enqueue(async () => {}),
    reconcile: () => enqueue(reconcile),
    refreshSnapshot,
  };
}
