/**
 * The words of the one write path: who writes (`Actor`), how (`WriteOptions`), which zone
 * (`Target`), what a writer edits (`Edit`, the handle's editable face) and what comes of it
 * (`ChangeSet`, `Applied`).
 */
import type { Slicer } from '../../../core/pause';
import { SOA_FIELDS } from '../../../core/soa';
import type { Scope } from '../../../core/scope';
import type { DomainRow, KeyFlags, KeyRole, NewRow, RecordRow, ServiceRepos, Store } from '../../../store/types';
import type { DeletedZoneRow } from '../../../store/types/deleted-zones';
import type { ZoneEvents } from '../events';
import type { Blame, RecordData, ZoneDraft } from '../zone-draft';
import type { ZoneUpdate } from './zone-update';

export const SOURCES = ['api', 'dashboard', 'cli', 'rfc2136', 'import', 'revert', 'pdns', 'dnssec', 'alias', 'transfer', 'health', 'system'] as const;
export type Source = (typeof SOURCES)[number];

/** Who makes a change: the user and the credential they used (`token:<id>`, `session`, `tsig:<key>`, `cli`). */
export interface Actor {
  username: string;
  credential: string;
  /**
   * The acting user (absent for the admin CLI, which acts as the zone's owner): on a team's zone
   * their role is judged too, on the locked row: a viewer changes nothing, an editor records only.
   */
  userId?: number;
  /**
   * The credential's scope; absent or empty: unrestricted. Judged on the zone row the change
   * locked: every RRset it touches, and any setting or key it changes.
   */
  scope?: Scope;
}

export interface WriteOptions {
  source: Source;
  actor: Actor;
  comment?: string;
  /** The serial the writer last saw (If-Match); '*' or absent: any. */
  ifMatch?: number | '*';
  dryRun?: boolean;
  /** The batch (one apply across zones) this change set belongs to. */
  batch?: string;
  /**
   * The request's signal: once its client has gone, the change stops at its next yield point,
   * and before its commit, writing nothing (ClientGone). Absent: it runs to the end.
   */
  signal?: AbortSignal;
}

/** What the admin CLI (and code acting for it) writes as: the zone owner, credential `cli`. */
export const CLI_WRITE: WriteOptions = { source: 'cli', actor: { username: '', credential: 'cli' } };

/** The zone settings a change set can change besides records. */
export interface Settings {
  refresh_interval: number;
  retry_interval: number;
  expire_interval: number;
  minimum_ttl: number;
  dnssec_enabled: boolean;
  /** The zone's own transfers: JSON text of canonical lists (core/zone-transfers.ts), and a key name or null. */
  also_notify: string;
  allow_transfer: string;
  transfer_tsig_key: string | null;
  /** The zone's DNSSEC policy as stored (core/dnssec-policy.ts `policyText`); null: the defaults. */
  dnssec_policy: string | null;
  /** The zone's health-checked pools as stored (core/pools.ts `poolsText`); null: none. */
  pools: string | null;
}

export const SETTING_FIELDS = [...SOA_FIELDS, 'dnssec_enabled', 'also_notify', 'allow_transfer', 'transfer_tsig_key', 'dnssec_policy', 'pools'] as const;

/** What a transfer sets on a secondary's row: the primary's serial and SOA names, and when the zone expires. */
export interface TransferredRow {
  serial_number: number;
  soa_mname: string | null;
  soa_rname: string | null;
  /** Null until the first transfer (the zone is created before it). */
  expires_at: string | null;
}

/**
 * Key changes that are not a setting: one step of a rollover (services/dnssec/), made in the change
 * set's transaction with the zone's rollover state, so a step is all written or not at all.
 */
export interface KeyStep {
  /** Keys to make, with what each does from now on. */
  make: { algorithm: number; role: KeyRole; flags: KeyFlags }[];
  change: { id: number; flags: KeyFlags }[];
  drop: number[];
  /** The zone's rollover after the step (JSON text) given the ids of the keys made; null: none runs. */
  rollover: (made: number[]) => string | null;
  /** The step in a few words, for the history ("ZSK 4711 published beside ZSK 2001"). */
  summary: string;
}

/** A change set as the API shows it. */
export interface ChangeSet {
  id: number | null;
  serial_before: number;
  serial_after: number;
  created_at: string;
  source: Source;
  actor: { username: string; credential: string };
  comment: string;
  added: RecordData[];
  removed: RecordData[];
  settings: Record<string, [unknown, unknown]>;
  /** The batch it belongs to; absent for a change of one zone alone. */
  batch?: string;
}

/** What a writer edits of an open change set: the draft of the zone, the settings to change, the key step, and the transaction (without its zone writer). */
export interface Edit {
  draft: ZoneDraft;
  /** The zone as the change set locked it. */
  zone: DomainRow;
  tx: ServiceRepos;
  settings: Partial<Settings>;
  keys?: KeyStep;
  /** The time of the change (serial date, updated_at, history). */
  now: Date;
  /** Bump the serial even though nothing else changes (re-signing). */
  touch?: boolean;
  /** A secondary's transfer (source `transfer` alone): the zone row takes its primary's SOA instead of the next serial. */
  transfer?: TransferredRow;
  /** Maps a broken rule at a name and type to the field the caller sent (record CRUD's fields by default). */
  blame?: Blame;
  /** A writer's yield point between items of a long loop (the same as the draft's: it lets the event loop turn, and stops when the client is gone). */
  slice: Slicer;
}

/** What a commit wrote: the zone row after it, the change set, and the rows it inserted. */
export interface Committed {
  zone: DomainRow;
  change: ChangeSet;
  inserted: readonly RecordRow[];
  /** The relative names whose records changed, and whether the zone's keys did (for the zone event). */
  names: string[];
  keys: boolean;
}

export interface Applied<T> {
  change: ChangeSet;
  zone: DomainRow;
  result: T;
}

/**
 * A zone the change set brings into being, in its transaction: a new one from this row
 * (`create`), or a deleted one from the archive (`restore`, its id). The catalog zone's serial
 * moves on with it (RFC 9432).
 */
export type ZoneToBe = { create: NewRow<DomainRow> } | { restore: number };

/** Finds (inside the transaction) the zone a change set is for, or names the zone it creates. */
export type Locate = (tx: ServiceRepos, now: Date) => Promise<DomainRow | ZoneToBe>;

/**
 * The zone a change set is for: a zone found before the lock (the API's path, a DNS message's
 * zone), read again by id under the lock — NotFound when it is gone or is another zone now — or
 * one `Locate` finds inside the transaction (a zone by name for the CLI, one created or restored).
 */
export type Target = Pick<DomainRow, 'id' | 'name'> | Locate;

/** One zone's change of a change made across zones in one transaction (`updateMany`). */
export interface UpdateJob<T = void> {
  target: Target;
  /** Edits the open change set; may commit it to see what was written (else it is committed on return). */
  edit: (update: ZoneUpdate) => Promise<T> | T;
  /** What to throw instead when this zone's change fails (e.g. the error naming the zone). */
  fail?: (e: unknown) => unknown;
}

/** After the writes: with the rows the change inserted (e.g. to answer with a new record's id). */
export type After<T> = (tx: ServiceRepos, zone: DomainRow, change: ChangeSet, inserted: readonly RecordRow[]) => Promise<T>;

/** One zone's change of a change applied across zones (`applyMany`), as a builder and an `after`: the older form of `UpdateJob`. */
export interface ZoneChangeJob<T = void> {
  locate: Target;
  build: (edit: Edit) => Promise<void> | void;
  after?: After<T>;
  fail?: (e: unknown) => unknown;
}

/** What becomes of a zone's row outside any change set (`alterZone`): a new owner, or deletion. */
export type ZoneAlteration<T> =
  | { owner: { user_id: number; team_id: number | null }; result: T }
  /** Deleted; unless `discard`, archived for `days` first, and `archived` runs with the archive in the same transaction. */
  | { remove: { discard: true } | { deletedBy: string; days: number; archived: (tx: ServiceRepos, row: DeletedZoneRow) => Promise<unknown> }; result: T };

export interface ChangeSetOptions {
  /** Most records one zone may hold (MAX_RECORDS_PER_ZONE). */
  maxRecords: number;
  /** Whether RESOLVER is set, so that the DNS server can resolve ALIAS targets (else a new ALIAS is refused). */
  aliasResolver?: boolean;
  /** ALIAS_DENY: suffixes no ALIAS target may lie under, besides the special-use names. */
  aliasDeny?: readonly string[];
}

/**
 * Who hears of a write besides DNS, on the node that made it (never on the other nodes' copies of
 * its event): each change set committed, as the history shows it; a zone's delegation flag stored anew.
 */
export interface ChangeSetHooks {
  committed?: (zone: DomainRow, change: ChangeSet) => void;
  delegated?: (zone: DomainRow, delegated: boolean) => void;
}

/** What the change sets work with: the store with its zone writer, the zone events, the limits, the hooks. */
export interface ChangeSetDeps {
  store: Store;
  events: ZoneEvents;
  options: ChangeSetOptions;
  hooks?: ChangeSetHooks;
}
