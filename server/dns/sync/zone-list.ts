/**
 * Every zone the store holds, by id, name, serial and creation time, read a slice at a time so
 * that the DNS thread answers between two slices (one read of every row would hold the answers
 * up: ~100 ms at 10,000 zones). The reconcile, the catalog, the snapshot and the delegation check
 * list the zones this way.
 */
import { turn } from '../../core/pause';
import type { ReadStore, ZoneSerial } from '../../store/types';
import { hosted, type SyncDeps } from './sync-deps';

/** Zones read at a time by the periodic comparison and the catalog, with a turn for the questions waiting between two. */
export const SERIAL_SLICE = 1000;

/**
 * Every zone's id, name, serial and creation time (`domains.serials`), `limit` zones at a time by
 * id: a slice per step, so that the caller can give the event loop a turn between two.
 */
export async function* zoneSlices(store: Pick<ReadStore, 'domains'>, limit = SERIAL_SLICE): AsyncGenerator<ZoneSerial[]> {
  for (let after = 0; ;) {
    const slice = await store.domains.serials(after, limit);
    if (slice.length > 0) yield slice;
    if (slice.length < limit) return;
    after = slice.at(-1)!.id;
  }
}

/** Every hosted zone (not the catalog), a slice at a time with a turn between. */
export async function hostedSerials(deps: Pick<SyncDeps, 'store' | 'catalog' | 'serialSlice'>): Promise<ZoneSerial[]> {
  const out: ZoneSerial[] = [];
  for await (const slice of zoneSlices(deps.store, deps.serialSlice)) {
    for (const z of slice) if (hosted(deps, z)) out.push(z);
    await turn();
  }
  return out;
}
