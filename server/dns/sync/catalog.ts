/**
 * Keeps the catalog zone (RFC 9432, transfer/catalog-zone.ts) equal to the list of hosted zones:
 * built again when a zone appears or goes, and by every reconcile, at the serial the store keeps
 * for it. Secondaries are told (NOTIFY) when that serial moved.
 */
import type { ZoneSerial } from '../../store/types';
import { CATALOG_ID, catalogZone, listsExactly } from '../transfer/catalog-zone';
import type { SyncDeps } from './sync-deps';
import type { SyncQueue } from './sync-queue';
import { hostedSerials } from './zone-list';

export interface CatalogRead {
  serial: number;
  rows: ZoneSerial[];
}

/**
 * The catalog's serial, then the zones: read in this order, the zones are at least as new as
 * the serial, so a secondary never holds a serial whose members it has not seen.
 */
export async function readCatalog(deps: SyncDeps): Promise<CatalogRead> {
  const serial = deps.catalog ? await deps.store.catalog.serial() : 0;
  return { serial, rows: await hostedSerials(deps) };
}

/** Serves the catalog at `serial` listing `rows`, unless it already does; NOTIFY when the serial moved. */
export function putCatalog(deps: SyncDeps, serial: number, rows: readonly ZoneSerial[], notify = true): void {
  const { catalog, index } = deps;
  if (!catalog) return;
  const current = index.get(catalog);
  if (current?.id === CATALOG_ID && current.domain.serial_number === serial && listsExactly(current, rows)) return;
  const zone = catalogZone(catalog, serial, rows, deps.identity);
  index.put(zone);
  if (notify && current?.domain.serial_number !== serial) deps.hooks.serialChanged?.(zone);
}

/** Builds the catalog again after zones appear or go: once for any number of them told before it runs. */
export class CatalogRebuild {
  private queued = false;

  constructor(
    private readonly deps: SyncDeps,
    private readonly queue: SyncQueue,
  ) {}

  /** A zone appeared or went: build the catalog again once the events queued so far are applied. */
  changed(): void {
    if (!this.deps.catalog || this.queued) return;
    this.queued = true;
    void this.queue.push(async () => {
      this.queued = false;
      const { serial, rows } = await readCatalog(this.deps);
      putCatalog(this.deps, serial, rows);
    });
  }
}
