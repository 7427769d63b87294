/** Deleted zones kept for restoring (migration 0019): the archive's rows as services see them. */
import type { Page, Window } from './common';
import type { DomainRow } from './zones';

/** A deleted zone as a list shows it: who deleted it, when, and until when it can be restored. */
export interface DeletedZoneRow {
  id: number;
  name: string;
  /** The zone's user (its creator, for a team's zone). */
  user_id: number;
  /** The team that owned the zone; null for a zone of its user alone. */
  team_id: number | null;
  /** The zone's id while it lived (a restore brings it back under it). */
  domain_id: number;
  deleted_at: string;
  /** The username of who deleted it. */
  deleted_by: string;
  expires_at: string;
  /** Records it held (disabled ones too). */
  records: number;
  /** Whether it was signed. */
  dnssec: boolean;
}

/** Which deleted zones a credential may read: the user's own, the teams' where the user is owner or admin; `only`: just these names. */
export interface DeletedZoneFilter {
  userId: number;
  only?: readonly string[];
}

export interface DeletedZoneRepos {
  deletedZones: {
    /**
     * Archives the zone, inside the transaction that then deletes it: its domain row, records,
     * DNSSEC keys (private halves sealed exactly as stored), change sets with their records,
     * attributes, RRset comments and template link, as one JSON document.
     */
    archive(zone: DomainRow, meta: { deleted_at: string; deleted_by: string; expires_at: string }): Promise<DeletedZoneRow>;
    /** Newest deletion first. */
    page(filter: DeletedZoneFilter, w: Window): Promise<Page<DeletedZoneRow>>;
    byId(id: number): Promise<DeletedZoneRow | undefined>;
    /**
     * Brings an archived zone back, inside the caller's transaction: the domain row under its old
     * id (ids are never reused), then everything it held; the archive row goes. Returns the zone,
     * or undefined when the archive is gone (restored or purged meanwhile). A template deleted
     * since is not linked again.
     */
    unarchive(id: number): Promise<DomainRow | undefined>;
    /** Removes the archives that expired before `at`; returns how many. */
    purge(at: string): Promise<number>;
  };
}
