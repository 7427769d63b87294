/**
 * Keeps the in-memory zone index equal to the store: a full load at start, then the
 * services' change events (each applied in order, reading the changed names back from
 * the store), and a periodic comparison of serials that catches changes made by other
 * processes sharing the database (several API nodes on PostgreSQL). A signed zone's keys
 * are read with it, and again whenever the zone itself changes (DNSSEC on/off, rollover).
 */
import type { ZoneChange, ZoneEvents } from '../services/events';
import type { DomainRow, RecordRow, Store } from '../store/types';
import { signingKey } from './dnssec/keys';
import { Zone, type ZoneIdentity } from './zone';
import type { ZoneIndex } from './zone-index';

/** Past this many changed names, a zone is reloaded whole rather than name by name. */
const RELOAD_ABOVE = 500;
/** Records read, and names built, between two yields of a zone load. */
const LOAD_SLICE = 2000;

export interface ZoneSyncHooks {
  /** A zone's serial changed (or the zone appeared): time to NOTIFY secondaries. */
  serialChanged?(zone: Zone): void;
  /** A zone was created here: time for a first delegation check. */
  zoneAdded?(domain: DomainRow): void;
  onError?(err: unknown): void;
}

export interface ZoneSync {
  stop(): void;
  /** Resolves once every event received so far is applied (for tests and shutdown). */
  settled(): Promise<void>;
  /** Compares serials with the store and reloads what differs. */
  reconcile(): Promise<void>;
}

export async function syncZones(
  store: Store,
  events: ZoneEvents,
  index: ZoneIndex,
  identity: ZoneIdentity,
  hooks: ZoneSyncHooks = {},
  reconcileMs = 10_000,
): Promise<ZoneSync> {
  /** Signs the zone with its stored keys when DNSSEC is on; stops signing when off. */
  const loadKeys = async (zone: Zone, domain: DomainRow) => {
    const rows = domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : [];
    zone.setKeys(rows.map(signingKey));
  };

  const load = async (domain: DomainRow) => {
    // A big zone is read and built in slices, yielding between them, so the DNS thread keeps
    // answering (from the zone as it was) while the new one is built; then it is swapped in whole.
    const zone = new Zone(domain, [], identity);
    const byName = new Map<string, RecordRow[]>();
    for (let after = 0; ; ) {
      const rows = await store.records.slice(domain.id, after, LOAD_SLICE);
      for (const r of rows) {
        const list = byName.get(r.name);
        if (list) list.push(r);
        else byName.set(r.name, [r]);
      }
      if (rows.length < LOAD_SLICE) break;
      after = rows.at(-1)!.id;
      await new Promise((r) => setImmediate(r));
    }
    let n = 0;
    for (const [name, rows] of byName) {
      zone.replaceName(name, rows);
      if (++n % LOAD_SLICE === 0) await new Promise((r) => setImmediate(r));
    }
    await loadKeys(zone, domain);
    index.put(zone);
    return zone;
  };

  async function apply(change: ZoneChange): Promise<void> {
    const { domain } = change;
    const zone = index.get(domain.name);
    if (change.kind === 'zone-deleted') {
      if (zone?.id === domain.id) index.remove(domain.name);
      return;
    }
    if (!zone || zone.id !== domain.id) {
      // Load first: `hook?.(await load())` would skip the load when no hook is given.
      const loaded = await load(domain);
      hooks.serialChanged?.(loaded);
      hooks.zoneAdded?.(domain);
      return;
    }
    if (change.kind === 'zone-changed' && change.names.length > RELOAD_ABOVE) {
      // A big change (an import): build the zone anew and swap it in whole.
      if (domain.serial_number >= zone.domain.serial_number) hooks.serialChanged?.(await load(domain));
      return;
    }
    // Read everything first, then change the zone in one synchronous step: an answer never
    // sees half of a change set, nor new records under the old serial.
    const rows: RecordRow[][] = [];
    if (change.kind === 'zone-changed') for (const name of change.names) rows.push(await store.records.atName(zone.id, name));
    const keys = change.kind === 'zone-changed' && change.keys && domain.serial_number >= zone.domain.serial_number && domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : null;
    if (change.kind === 'zone-changed') change.names.forEach((name, i) => zone.replaceName(name, rows[i]!));
    // Events can arrive after a newer reload; never step a serial back.
    if (domain.serial_number >= zone.domain.serial_number) {
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

  async function reconcile(): Promise<void> {
    const rows = await store.domains.all();
    const seen = new Set<string>();
    for (const domain of rows) {
      seen.add(domain.name);
      const zone = index.get(domain.name);
      if (zone && zone.id === domain.id && zone.domain.serial_number === domain.serial_number) continue;
      const loaded = await load(domain);
      hooks.serialChanged?.(loaded);
    }
    for (const zone of [...index.all()]) if (!seen.has(zone.name)) index.remove(zone.name);
  }

  for (const domain of await store.domains.all()) await load(domain);
  const unsubscribe = events.subscribe((change) => void enqueue(() => apply(change)));
  const timer = setInterval(() => void enqueue(reconcile), reconcileMs);
  timer.unref();

  return {
    stop() {
      unsubscribe();
      clearInterval(timer);
    },
    settled: () => enqueue(async () => {}),
    reconcile: () => enqueue(reconcile),
  };
}
