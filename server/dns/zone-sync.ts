/**
 * Keeps the in-memory zone index equal to the store: a full load at start, then change
 * events (each applied in order, reading the changed names back from the store) — this
 * process's own, and on PostgreSQL every other node's too (other-nodes.ts) — and a periodic
 * comparison of serials as a safety net for anything missed. A signed zone's keys are read
 * with it, and again whenever the zone itself changes (DNSSEC on/off, rollover). With a
 * catalog zone (CATALOG_ZONE), it is built again whenever a zone appears or goes.
 */
import { serialAtOrAfter } from '../core/soa';
import type { ZoneChange, ZoneEvents } from '../services/events';
import type { DomainRow, RecordRow, ReadStore, ServedRecord } from '../store/types';
import { CATALOG_ID, catalogZone, listsExactly } from './catalog-zone';
import { signingKey } from './dnssec/keys';
import { Zone, type ZoneIdentity } from './zone';
import type { ZoneIndex } from './zone-index';

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

export interface ZoneSyncHooks {
  /** A zone's serial changed (or the zone appeared): time to NOTIFY secondaries. */
  serialChanged?(zone: Zone): void;
  /** A zone was created here: time for a first delegation check. */
  zoneAdded?(domain: DomainRow): void;
  /** Start-up progress: zones loaded so far of all hosted (called as they load, and once at the end). */
  loading?(progress: LoadProgress): void;
  onError?(err: unknown): void;
}

export interface LoadProgress {
  loaded: number;
  total: number;
}

export interface ZoneSync {
  stop(): void;
  /** Resolves when every zone of the start is loaded. */
  loaded: Promise<void>;
  /** Resolves once every event received so far is applied (for tests and shutdown). */
  settled(): Promise<void>;
  /** Compares serials with the store and reloads what differs. */
  reconcile(): Promise<void>;
}

export interface ZoneSyncOptions {
  /** The catalog zone to serve (RFC 9432), listing every zone of the store. */
  catalog?: string;
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
  const hosted = (domain: DomainRow) => domain.name !== catalog;

  /** Signs the zone with its stored keys when DNSSEC is on; stops signing when off. */
  const loadKeys = async (zone: Zone, domain: DomainRow) => {
    const rows = domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : [];
    zone.setKeys(rows.map(signingKey));
  };

  const load = async (domain: DomainRow) => {
    // A big zone is read and built in slices, yielding between them, so the DNS thread keeps
    // answering (from the zone as it was) while the new one is built; then it is swapped in whole.
    // The slices come by name (the index's order), so each name is built as soon as its rows are in.
    const zone = new Zone(domain, [], identity);
    let group: ServedRecord[] = [];
    const build = () => {
      // The RRsets at a name are kept in the order of their first row, as a change (rows by id) makes them.
      if (group.length > 1) group.sort((x, y) => x.id - y.id);
      zone.replaceName(group[0]!.name, group);
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
      await new Promise((r) => setImmediate(r));
    }
    if (group.length > 0) build();
    await loadKeys(zone, domain);
    index.put(zone);
    return zone;
  };

  async function apply(change: ZoneChange): Promise<void> {
    const { domain } = change;
    if (!hosted(domain)) return;
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
   * The catalog's serial, then the zones: read in this order, the zones are at least as new as
   * the serial, so a secondary never holds a serial whose members it has not seen.
   */
  async function readCatalog(): Promise<{ serial: number; rows: DomainRow[] }> {
    const serial = catalog ? await store.catalog.serial() : 0;
    return { serial, rows: (await store.domains.all()).filter(hosted) };
  }

  /** Serves the catalog at `serial` listing `rows`, unless it already does; NOTIFY when the serial moved. */
  function putCatalog(serial: number, rows: readonly DomainRow[], notify = true): void {
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
    for (const domain of rows) {
      seen.add(domain.name);
      const zone = index.get(domain.name);
      if (zone && zone.id === domain.id && zone.domain.serial_number === domain.serial_number) continue;
      const loaded = await load(domain);
      hooks.serialChanged?.(loaded);
    }
    for (const zone of [...index.all()]) if (!seen.has(zone.name) && zone.name !== catalog) index.remove(zone.name);
    putCatalog(serial, rows);
  }

  // The start: every hosted name is known at once, then the zones load one after another in the
  // background while the loaded ones answer (those still loading are SERVFAIL, see zone-index.ts).
  // Events wait in the chain behind the load; the caller may wait a little for small installs.
  const initial = await readCatalog();
  index.expect(initial.rows.map((d) => d.name));
  const total = initial.rows.length;
  hooks.loading?.({ loaded: 0, total });
  let reported = Date.now();
  const loaded = enqueue(async () => {
    let yielded = Date.now();
    for (let i = 0; i < total; i++) {
      // One zone that cannot be read now is reported and left to the next reconcile; the others load.
      await load(initial.rows[i]!).catch((err: unknown) => hooks.onError?.(err));
      const now = Date.now();
      // Small zones never reach a slice's yield, and the store's reads resolve without a turn of the
      // event loop: give the questions waiting on the socket their turn every few milliseconds, so
      // the zones already loaded answer while the rest load.
      if (now - yielded >= 5) {
        await new Promise((r) => setImmediate(r));
        yielded = Date.now();
      }
      if (now - reported >= 250) {
        reported = now;
        hooks.loading?.({ loaded: i + 1, total });
      }
    }
    index.settle();
    putCatalog(initial.serial, initial.rows, false);
    hooks.loading?.({ loaded: total, total });
  });
  const unsubscribe = events.subscribe((change) => void enqueue(() => apply(change)));
  const timer = setInterval(() => void enqueue(reconcile), reconcileMs);
  timer.unref();

  return {
    loaded,
    stop() {
      unsubscribe();
      clearInterval(timer);
    },
    settled: () => enqueue(async () => {}),
    reconcile: () => enqueue(reconcile),
  };
}
