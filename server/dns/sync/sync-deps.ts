/**
 * What the parts of the zone sync share, handed to each as one small object: the store they read,
 * the index they keep, the identity zones are built with, the hooks they tell, and the catalog's
 * name. Nothing here holds state of its own.
 */
import type { DomainRow, ReadStore } from '../../store/types';
import type { Zone, ZoneIdentity } from '../index/zone';
import type { ZoneIndex } from '../index/zone-index';

export interface LoadProgress {
  loaded: number;
  total: number;
}

/** How a refresh of the snapshot went (snapshot-cycle.ts). */
export interface SnapshotRefresh {
  /** Zones whose blocks were still good, copied as they were. */
  kept: number;
  /** Zones read from the store and filed anew. */
  read: number;
  /** Whether a new file was put in place (false: the old one already held every zone as stored). */
  written: boolean;
}

export type SnapshotFaultKind = 'unreadable' | 'zone_damaged' | 'write_failed';

export interface ZoneSyncHooks {
  /** A zone's serial changed (or the zone appeared): time to NOTIFY secondaries. */
  serialChanged?(zone: Zone): void;
  /** A zone was created here: time for a first delegation check. */
  zoneAdded?(domain: DomainRow): void;
  /** Start-up progress: zones loaded so far of all hosted (called as they load, and once at the end). */
  loading?(progress: LoadProgress): void;
  /** The snapshot was brought up to date by its timer. */
  snapshotRefreshed?(refresh: SnapshotRefresh): void;
  /**
   * The snapshot let the node down: a file that cannot be read (cut short, altered, of another
   * version), one zone's damaged block (that zone read from the store), or a write that failed
   * (tried again later). Never fatal: the zones come from the store.
   */
  snapshotFault?(fault: SnapshotFaultKind, message: string): void;
  onError?(err: unknown): void;
}

export interface SyncDeps {
  store: ReadStore;
  index: ZoneIndex;
  identity: ZoneIdentity;
  hooks: ZoneSyncHooks;
  /** The catalog zone to serve (RFC 9432, CATALOG_ZONE); none: no catalog. */
  catalog?: string;
  /** Zones read at a time when every zone is listed (default SERIAL_SLICE, zone-list.ts). */
  serialSlice?: number;
}

/** A hosted zone may not shadow the catalog (the API refuses the name; a node configured without it might not). */
export const hosted = (deps: Pick<SyncDeps, 'catalog'>, domain: { name: string }): boolean => domain.name !== deps.catalog;
