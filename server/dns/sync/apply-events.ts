/**
 * A zone's change event applied to the index: the names it lists read back from the store and
 * replaced in one synchronous step, a zone new to the index loaded whole, a deleted one removed.
 * Events come from this process's change sets and, on PostgreSQL, from every other node
 * (other-nodes.ts), in the order of one queue (sync-queue.ts).
 */
import { serialAtOrAfter } from '../../core/soa';
import type { ZoneChange } from '../../services/changes/events';
import type { RecordRow } from '../../store/types';
import { signingKey } from '../dnssec/keys';
import type { SyncDeps } from './sync-deps';
import { loadZone } from './zone-load';

/** Past this many changed names, a zone is reloaded whole rather than name by name. */
export const RELOAD_ABOVE = 500;

/**
 * Applies one change of a hosted zone. Answers whether the list of zones changed (a zone appeared
 * or went), for the catalog to be built again.
 */
export async function applyChange(deps: SyncDeps, change: ZoneChange): Promise<boolean> {
  const { store, index, hooks } = deps;
  const { domain } = change;
  const zone = index.get(domain.name);
  if (change.kind === 'zone-deleted') {
    if (zone?.id !== domain.id) return false;
    index.remove(domain.name);
    return true;
  }
  if (!zone || zone.id !== domain.id) {
    // A zone new to the index. Another node's message may come after this node already
    // deleted the zone itself: load only what the store still holds, as it is now.
    const stored = await store.domains.byId(domain.id);
    if (!stored) return false;
    // Load first: `hook?.(await loadZone())` would skip the load when no hook is given.
    const loaded = await loadZone(deps, stored);
    hooks.serialChanged?.(loaded);
    hooks.zoneAdded?.(stored);
    return true;
  }
  // Past here the change is a change set's (`zone-changed`) on a zone the index holds.
  if (change.reload || change.names.length > RELOAD_ABOVE) {
    // A big change (an import), or one from another node that named too many names to list:
    // build the zone anew and swap it in whole.
    if (serialAtOrAfter(domain.serial_number, zone.domain.serial_number)) {
      const loaded = await loadZone(deps, domain);
      hooks.serialChanged?.(loaded);
    }
    return false;
  }
  // Read everything first, then change the zone in one synchronous step: an answer never
  // sees half of a change set, nor new records under the old serial.
  const rows: RecordRow[][] = [];
  for (const name of change.names) rows.push((await store.records.atName(zone.id, name)).filter((r) => !r.disabled));
  // Events can arrive after a newer reload; never step a serial back.
  const newer = serialAtOrAfter(domain.serial_number, zone.domain.serial_number);
  const keys = change.keys && newer && domain.dnssec_enabled ? await store.dnssecKeys.signingKeys(domain.id) : null;
  change.names.forEach((name, i) => zone.replaceName(name, rows[i]!));
  if (newer) {
    zone.setDomain(domain);
    if (change.keys) zone.setKeys((keys ?? []).map(signingKey));
  }
  hooks.serialChanged?.(zone);
  return false;
}
