/** Zones as stored: the zone row, its records, DNSSEC keys, PowerDNS attributes and RRset comments, and the catalog's serial. */
import type { NewRow, Page, Window } from './common';

/** What the DNS thread's periodic comparison needs of a zone (`domains.serials`). */
export type ZoneSerial = Pick<DomainRow, 'id' | 'name' | 'serial_number' | 'created_at'>;

export interface DomainRow {
  id: number;
  user_id: number;
  name: string;
  serial_number: number;
  refresh_interval: number;
  retry_interval: number;
  expire_interval: number;
  minimum_ttl: number;
  dnssec_enabled: boolean;
  delegated: boolean;
  /** A delegation check has answered for the zone (migration 0033); absent or false: `delegated` is not known. */
  delegation_checked?: boolean;
  created_at: string;
  updated_at: string;
  /**
   * When DNSSEC was last turned off (null while signed, or never signed): the DNS server
   * publishes the CDS/CDNSKEY delete form for a while after it (RFC 8078 §4).
   */
  dnssec_disabled_at?: string | null;
  /** The team that owns the zone (migration 0014): its members reach it with their role; null for a zone of its user alone. */
  team_id?: number | null;
  /** `secondary`: its records come by zone transfer from `primaries` (migration 0024); absent: `primary`. */
  kind?: ZoneKind;
  /** A secondary's primaries, `host:port` (`[v6]:port`); empty for a primary zone. */
  primaries?: string[];
  /** The TSIG key a secondary's transfers (and its primaries' NOTIFYs) are signed with; null: none. */
  tsig_key?: string | null;
  /** A secondary's SOA MNAME and RNAME as its primary serves them; null for a primary zone (NAMESERVERS, HOSTMASTER). */
  soa_mname?: string | null;
  soa_rname?: string | null;
  /** When a secondary stops being answered unless refreshed (its last refresh + SOA expire); null: never transferred. */
  expires_at?: string | null;
  /** The catalog (migration 0027) a secondary came from; null or absent for one made by hand. */
  catalog_id?: number | null;
  /**
   * The zone's own transfers (migration 0025), beside SECONDARIES and AXFR_ALLOW: JSON text of a
   * list of `host:port` NOTIFY also goes to, and of the networks that may AXFR/IXFR the zone
   * (canonical form, so equal lists are equal text); the TSIG key name both are signed with, or
   * null. Absent on rows made before they were read (tests' fixtures): empty lists, no key.
   */
  also_notify?: string;
  allow_transfer?: string;
  transfer_tsig_key?: string | null;
  /** The zone's DNSSEC policy (migration 0028; core/dnssec-policy.ts), JSON text; null or absent: the defaults. */
  dnssec_policy?: string | null;
  /** The key rollover in progress (migration 0028; services/dnssec/rollover-steps.ts), JSON text; null or absent: none. */
  dnssec_rollover?: string | null;
  /** The zone's health-checked pools (migration 0029; core/pools.ts), JSON text; null or absent: none. */
  pools?: string | null;
}

export const ZONE_KINDS = ['primary', 'secondary'] as const;
export type ZoneKind = (typeof ZONE_KINDS)[number];

/** A record as a list shows it (the API's record view, the dashboard): no zone id, no timestamps. */
export type ListedRecord = Pick<RecordRow, 'id' | 'name' | 'record_type' | 'content' | 'ttl' | 'disabled'>;

export interface RecordRow {
  id: number;
  domain_id: number;
  name: string;
  record_type: string;
  content: string;
  ttl: number;
  created_at: string;
  updated_at: string;
  /** 1: disabled (kept and listed, never served, signed or transferred); 0: served. */
  disabled: number;
}

/** What the DNS index keeps of a served record (dns/sync/zone-load.ts, zone.ts). */
export type ServedRecord = Pick<RecordRow, 'id' | 'name' | 'record_type' | 'content' | 'ttl'>;

export interface RecordFilter {
  name?: string;
  /** Only records at this relative name or below it. */
  below?: string;
  record_type?: string;
}

/** A zone's DNSSEC key without its secret half: everything the API may show. */
export interface DnssecPublicKey {
  id: number;
  domain_id: number;
  /** DNSKEY flags: 257 for a CSK (Zone Key + Secure Entry Point, RFC 4034 §2.1.1). */
  flags: number;
  algorithm: number;
  key_tag: number;
  /** The DNSKEY public key field, base64. */
  public_key: string;
  /** SHA-256 digest of the DS record (digest type 2), upper-case hex. */
  ds_digest: string;
  created_at: string;
  /** What the key signs: everything (csk), the apex key sets (ksk) or the rest (zsk). */
  role: KeyRole;
  /** Its place in its life as RFC 7583 names it, and since when. */
  state: KeyState;
  state_at: string | null;
  /** In the apex DNSKEY set; signs (the sets its role signs); in CDS/CDNSKEY, for the parent. */
  published: boolean;
  signing: boolean;
  in_cds: boolean;
}

export const KEY_ROLES = ['csk', 'ksk', 'zsk'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];
export const KEY_STATES = ['generated', 'published', 'ready', 'active', 'retired', 'removed'] as const;
export type KeyState = (typeof KEY_STATES)[number];
/** What a rollover step sets on a key. */
export type KeyFlags = Pick<DnssecPublicKey, 'state' | 'published' | 'signing' | 'in_cds'>;

/** What the node driving a zone's rollovers last saw of the parent (migration 0028). */
export interface DnssecWatch {
  domain_id: number;
  checked_at: string | null;
  /** The DS set the parent served at `checked_at` (zone-file rdata), null when it gave no usable answer. */
  parent_ds: string[] | null;
  /** When the parent was first seen serving the DS the step waits for, and that DS set's TTL. */
  seen_at: string | null;
  seen_ttl: number | null;
  /** Why the last look at the parent told nothing (no RESOLVER, a timeout …); null when it answered. */
  error: string | null;
}

export interface DnssecKeyRow extends DnssecPublicKey {
  /** PKCS#8 DER, base64. Only the DNS server reads it; it never reaches a response or a log. */
  private_key: string;
}

/** A zone's PowerDNS attributes (migration 0011). */
export interface ZoneAttributes {
  account: string;
  soa_edit_api: string;
  catalog: string;
}

/** A comment on an RRset (migration 0012); `modified_at` in seconds since 1970. */
export interface RRsetComment {
  name: string;
  record_type: string;
  content: string;
  account: string;
  modified_at: number;
}

export const DEFAULT_ZONE_ATTRIBUTES: ZoneAttributes = { account: '', soa_edit_api: 'DEFAULT', catalog: '' };

/** A zone as an administrator's list of every account's zones shows it: who holds it, and its size. */
export interface AccountZone extends DomainRow {
  /** The user who holds the zone (for a team's zone, the one who made it). */
  username: string;
  /** The team that holds it, if one does. */
  team_name: string | null;
  record_count: number;
}

export interface ZoneRepos {
  domains: {
    insert(row: NewRow<DomainRow>): Promise<DomainRow>;
    byName(name: string): Promise<DomainRow | undefined>;
    byId(id: number): Promise<DomainRow | undefined>;
    /** The zones the user may read (theirs, and their teams'), by name; `only`: just these names (a token scoped to zones). */
    page(userId: number, w: Window, search?: string, only?: readonly string[]): Promise<Page<DomainRow>>;
    /** Every account's zones by name, for an administrator: `search` matches the zone's name, its user's or its team's. */
    acrossAccounts(w: Window, search?: string): Promise<Page<AccountZone>>;
    /** Moves the zone to a team, or (null) to its user alone. */
    setOwner(zone: DomainRow, owner: { user_id: number; team_id: number | null }): Promise<DomainRow>;
    /** Every zone, for the DNS server's index. */
    all(): Promise<DomainRow[]>;
    /**
     * Zones by id after `afterId`, at most `limit`, with only what the DNS thread compares and lists
     * (its reconcile and catalog read every zone this way, a slice at a time, between answers).
     */
    serials(afterId: number, limit: number): Promise<ZoneSerial[]>;
    /** Zones that are ancestors or descendants of `name` (not `name` itself). */
    related(name: string): Promise<DomainRow[]>;
    /**
     * Locks the zone, as this transaction read it, for the rest of the transaction and returns it
     * as it is now: PostgreSQL reads it again with SELECT … FOR UPDATE; SQLite's transaction holds
     * the write lock from its start, so the row it read is current. Serials are computed from it.
     */
    lock(zone: DomainRow): Promise<DomainRow>;
    /** Sets the patch's columns on `zone` (as the caller read it, e.g. lock's) and returns that row with them. */
    update(zone: DomainRow, patch: Partial<NewRow<DomainRow>>): Promise<DomainRow>;
    /**
     * The same, only while the zone holds at most `recordsAtMost` records (as counted after this
     * transaction's own writes): null, and nothing set, when it holds more. A change set checks
     * its zone's size in the statement that bumps the serial, with no read of its own.
     */
    update(zone: DomainRow, patch: Partial<NewRow<DomainRow>>, guard: { recordsAtMost: number }): Promise<DomainRow | null>;
    delete(id: number): Promise<boolean>;
  };
  /** What PowerDNS clients set on a zone and read back (account, soa_edit_api, catalog); nothing zonedeck serves. */
  zoneAttributes: {
    /** By domain id; a zone without a row has the defaults. */
    get(domainIds: readonly number[]): Promise<Map<number, ZoneAttributes>>;
    set(domainId: number, attributes: ZoneAttributes): Promise<void>;
  };
  /** Comments on RRsets (the PowerDNS API's `comments`); nothing zonedeck serves. */
  rrsetComments: {
    /** A zone's comments, by RRset in the order written; `name` narrows to one name. */
    byDomain(domainId: number, name?: string): Promise<RRsetComment[]>;
    /** Sets the comments of one RRset to exactly `list` (empty: none). */
    replace(domainId: number, name: string, recordType: string, list: readonly Omit<RRsetComment, 'name' | 'record_type'>[]): Promise<void>;
  };
  dnssecKeys: {
    insert(row: NewRow<DnssecKeyRow>): Promise<DnssecPublicKey>;
    /** A zone's keys with their private halves, oldest first (for the DNS server). */
    signingKeys(domainId: number): Promise<DnssecKeyRow[]>;
    /** The public halves of these zones' keys, oldest first. */
    publicKeys(domainIds: number[]): Promise<DnssecPublicKey[]>;
    /** Moves a key on in its life (a rollover step). */
    update(id: number, flags: KeyFlags & { state_at: string }): Promise<void>;
    delete(id: number): Promise<boolean>;
    /** Removes every key of a zone; returns how many. */
    deleteByDomain(domainId: number): Promise<number>;
  };
  /** The rollover driver's view of each signed zone's parent, and the lease one node holds on a zone. */
  dnssecWatch: {
    get(domainId: number): Promise<DnssecWatch | null>;
    /** Signed primary zones due a look (never looked at, due by `next_at`, or changed since), not leased by another node. */
    due(now: string, limit: number): Promise<number[]>;
    /** Takes the zone for `holder` until `until` unless another node holds it; whether it did. */
    lease(domainId: number, holder: string, now: string, until: string): Promise<boolean>;
    /** Writes what was seen and when to look again, and lets the lease go. */
    release(domainId: number, holder: string, seen: Omit<DnssecWatch, 'domain_id'> & { next_at: string }): Promise<void>;
  };
  records: {
    /**
     * One page of a zone's records of one type, by name and id, after `after` (keyset paging on the
     * records_type index): a bounded query, whatever the zone's size.
     */
    ofType(domainId: number, recordType: string, after: { name: string; id: number } | null, limit: number): Promise<ListedRecord[]>;
    byId(domainId: number, id: number): Promise<RecordRow | undefined>;
    /** By name, type and id. */
    page(domainId: number, filter: RecordFilter, w: Window): Promise<Page<ListedRecord>>;
    atName(domainId: number, name: string): Promise<RecordRow[]>;
    /** The records at any of these names, by id (one query for many names). */
    atNames(domainId: number, names: readonly string[]): Promise<RecordRow[]>;
    /**
     * What a change's draft of the zone needs: the records at `names` (by id), and which of the
     * names `above` them hold a DNAME, the one thing of theirs a change below can break (RFC 6672
     * §2.4). Few names: one query for both.
     */
    near(domainId: number, names: readonly string[], above: readonly string[]): Promise<{ rows: ListedRecord[]; dnames: string[] }>;
    byDomain(domainId: number): Promise<RecordRow[]>;
    /**
     * The zone's served (not disabled) records by name, type and id, after `after` (a record of the
     * previous slice), at most `limit`: what the DNS index loads, in slices, a name's rows together.
     */
    served(domainId: number, after: ServedRecord | null, limit: number): Promise<ServedRecord[]>;
    /** The zone's record count as the database keeps it: one row read, whatever the zone's size. */
    zoneCount(domainId: number): Promise<number>;
    /** The largest TTL of the zone's records (0 for none): how long a resolver may hold any of its answers. */
    maxTtl(domainId: number): Promise<number>;
    /**
     * Each zone's content tag (migration 0021): random, made anew by the database at every write
     * of the zone's records. Records read after a tag are at least as new as it; while the tag is
     * unchanged, they are unchanged. Zones without one are missing.
     */
    contentTags(): Promise<Map<number, string>>;
    update(id: number, patch: Partial<NewRow<RecordRow>>): Promise<RecordRow>;
    /** Inserts many rows (imports, bulk changes): on SQLite one cached statement per row, on PostgreSQL up to 500 rows per statement. Returns the stored rows, in no particular order. */
    insertMany(rows: NewRow<RecordRow>[]): Promise<RecordRow[]>;
    deleteMany(ids: number[]): Promise<void>;
  };
  catalog: {
    /** The catalog zone's serial (RFC 9432): it moves on whenever a zone is created or deleted. */
    serial(): Promise<number>;
    /** Moves the serial on, in the transaction that creates or deletes a zone; returns the new one. */
    bump(now: Date): Promise<number>;
  };
}
