/** The refresh state of secondary zones (migration 0024): what their transfers know, and the lease one node holds while it checks. */

export const TRANSFER_STATES = ['ok', 'refreshing', 'failing', 'expired'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export interface TransferRow {
  domain_id: number;
  /** `refreshing` until the first transfer, `ok` after a good check, `failing` after a failed one, `expired` past SOA expire. */
  state: TransferState;
  /** The primary's serial as last transferred; null before the first transfer. */
  serial: number | null;
  last_check: string | null;
  last_success: string | null;
  /** The last check's failure, in words; null after a good one. */
  error: string | null;
  /** Failed checks in a row (backs the retry off). */
  failures: number;
  /** When the zone is due to be checked again (ISO). */
  next_check: string;
  lease_holder: string | null;
  lease_until: string | null;
}

/** What a check found, written when it ends (the lease given back). */
export type TransferResult = Pick<TransferRow, 'state' | 'serial' | 'last_check' | 'last_success' | 'error' | 'failures' | 'next_check'>;

export interface TransferRepos {
  transfers: {
    /** The rows of these zones (a secondary never checked has none). */
    get(domainIds: readonly number[]): Promise<Map<number, TransferRow>>;
    /** Secondary zones due for a check at `now` whose lease is free, by id, at most `limit`. */
    due(now: string, limit: number): Promise<number[]>;
    /**
     * Takes the zone's lease for `holder` until `until` when it is free (or already `holder`'s),
     * making the row of a zone never checked: whether it was taken.
     */
    claim(domainId: number, holder: string, now: string, until: string): Promise<boolean>;
    /** Writes what `holder`'s check found and gives the lease back (nothing when the lease is no longer its). */
    finish(domainId: number, holder: string, result: TransferResult): Promise<void>;
    /** Makes the zone due at `at` unless it is due sooner (a NOTIFY, "retrieve now"). */
    dueBy(domainId: number, at: string): Promise<void>;
  };
}

/** A catalog followed as a consumer (RFC 9432, migration 0027). */
export interface CatalogRow {
  id: number;
  /** The catalog zone's name. */
  zone: string;
  primaries: string[];
  tsig_key: string | null;
  /** Whom its members are made for: a user, or (team_id) a team, through its owner `user_id`. */
  user_id: number;
  team_id: number | null;
  created_at: string;
  serial: number | null;
  /** Member zones as of the last good check. */
  members: number;
  last_check: string | null;
  last_success: string | null;
  error: string | null;
  next_check: string;
}

export type NewCatalog = Pick<CatalogRow, 'zone' | 'primaries' | 'tsig_key' | 'user_id' | 'team_id' | 'created_at' | 'next_check'>;
export type CatalogResult = Pick<CatalogRow, 'serial' | 'members' | 'last_check' | 'last_success' | 'error' | 'next_check'>;

export interface CatalogRepos {
  catalogs: {
    insert(row: NewCatalog): Promise<CatalogRow>;
    all(): Promise<CatalogRow[]>;
    byZone(zone: string): Promise<CatalogRow | undefined>;
    byId(id: number): Promise<CatalogRow | undefined>;
    /** Catalogs due at `now` whose lease is free. */
    due(now: string): Promise<CatalogRow[]>;
    claim(id: number, holder: string, now: string, until: string): Promise<boolean>;
    finish(id: number, holder: string, result: CatalogResult): Promise<void>;
    dueBy(id: number, at: string): Promise<void>;
    delete(id: number): Promise<boolean>;
    /** The zones made from this catalog, by name. */
    memberZones(id: number): Promise<{ id: number; name: string }[]>;
  };
}
