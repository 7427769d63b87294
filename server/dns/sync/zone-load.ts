/**
 * Builds one zone of the index from the store: its served rows a slice at a time, then its
 * signing keys, then the zone swapped in whole. Every path that puts a zone in the index (the
 * start, an event, the reconcile) goes through `loadZone`.
 */
import { turn } from '../../core/pause';
import type { DomainRow, ServedRecord } from '../../store/types';
import { signingKey } from '../dnssec/keys';
import { Zone } from '../index/zone';
import type { SyncDeps } from './sync-deps';

/**
 * Records read, and names built, between two yields of a zone load. On SQLite a slice comes as one
 * JSON text, and a string has a ceiling (V8: ~536 million characters). A record's data is at most
 * 65,535 octets (record-codec.ts refuses more), at most 4 characters an octet as text (\DDD) and 5
 * in JSON: ~330,000 characters a record, so a slice of 1,000 stays under 340 million whatever a
 * tenant stores.
 */
export const LOAD_SLICE = 1000;

/** Takes a name's rows, lent: kept by no one after the call. */
export type OnName = (rel: string, rows: readonly ServedRecord[]) => void;

/**
 * Reads a zone's served rows from the store in slices, yielding between them, and hands on each
 * name with its rows (in id order: a name's RRsets keep the order of their first row, as a
 * change makes them). The slices come by name (the index's order), so each name is whole as
 * soon as its rows are in.
 */
export async function readZoneRows(store: SyncDeps['store'], domain: DomainRow, onName: OnName): Promise<void> {
  let group: ServedRecord[] = [];
  const build = () => {
    if (group.length > 1) group.sort((x, y) => x.id - y.id);
    onName(group[0]!.name, group);
    group = [];
  };
  for (let after: ServedRecord | null = null; ;) {
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
}

/** Signs the zone with its stored keys when DNSSEC is on; stops signing when off. */
async function loadKeys(store: SyncDeps['store'], zone: Zone, domain: DomainRow): Promise<void> {
  const rows = domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : [];
  zone.setKeys(rows.map(signingKey));
}

/**
 * Builds a zone (`fill`: from the store unless given), reads its keys and swaps it into the
 * index whole: while a big zone is built, the DNS thread keeps answering from the zone as it
 * was. A fill that fails leaves the index as it was.
 */
export async function loadZone(deps: Pick<SyncDeps, 'store' | 'index' | 'identity'>, domain: DomainRow, fill?: (zone: Zone) => Promise<void>, capacity?: number): Promise<Zone> {
  const zone = new Zone(domain, [], deps.identity, capacity);
  await (fill ? fill(zone) : readZoneRows(deps.store, domain, (rel, rows) => zone.replaceName(rel, rows)));
  await loadKeys(deps.store, zone, domain);
  deps.index.put(zone);
  return zone;
}
