/**
 * The safety net behind the events: every hosted zone's serial compared with the index's, and
 * each zone that differs (or is missing) loaded again from the store; zones the store no longer
 * holds leave the index. It runs on a timer, and after every (re)connect of the feed from other
 * nodes, so a missed event costs at most one period.
 */
import { putCatalog, readCatalog } from './catalog';
import type { SyncDeps } from './sync-deps';
import { loadZone } from './zone-load';

/**
 * Brings the index to the store's zones and serials, and the catalog with it. `reloading` is told
 * before each zone is loaded again (the snapshot is then behind).
 */
export async function reconcile(deps: SyncDeps, reloading: () => void = () => {}): Promise<void> {
  const { store, index, hooks } = deps;
  const { serial, rows } = await readCatalog(deps);
  const seen = new Set<string>();
  for (const listed of rows) {
    seen.add(listed.name);
    const zone = index.get(listed.name);
    // The same zone (not one deleted and made again under its name) at the same serial.
    if (zone && zone.id === listed.id && zone.domain.serial_number === listed.serial_number) continue;
    const domain = await store.domains.byId(listed.id);
    // Deleted since it was listed: gone from the index below (unless made again, under a later id).
    if (!domain) {
      seen.delete(listed.name);
      continue;
    }
    reloading();
    const loaded = await loadZone(deps, domain);
    hooks.serialChanged?.(loaded);
  }
  for (const zone of [...index.all()]) if (!seen.has(zone.name) && zone.name !== deps.catalog) index.remove(zone.name);
  putCatalog(deps, serial, rows);
}
