/** A zone's history: its change sets and the records each added or removed. */
import type { NewRow, Page, Window } from './common';

/** One change set of a zone's history; its records are ChangeEntryRows. */
export interface ChangeSetRow {
  id: number;
  domain_id: number;
  serial_before: number;
  serial_after: number;
  created_at: string;
  source: string;
  actor_username: string;
  actor_credential: string;
  comment: string;
  /** JSON: {field: [old, new]}. */
  settings: string;
  added_count: number;
  removed_count: number;
  /** The batch (one apply across zones, migration 0015) it belongs to; null or absent for most. */
  batch_id?: string | null;
}

/** A record a change set added (op 1) or removed (op 0), as it was. */
export interface ChangeEntryRow {
  op: 0 | 1;
  name: string;
  record_type: string;
  ttl: number;
  content: string;
  /** 1: the record was (or became) a disabled one, outside the served zone (IXFR skips it). */
  disabled: number;
}

export interface ChangeFilter {
  source?: string;
  username?: string;
}

export interface HistoryRepos {
  changes: {
    insert(row: NewRow<ChangeSetRow>, entries: readonly ChangeEntryRow[]): Promise<ChangeSetRow>;
    /** Marks a change set as one of a batch (migration 0015). */
    setBatch(id: number, batchId: string): Promise<void>;
    /** The change sets of a batch, by id, with their zone's name. */
    ofBatch(batchId: string): Promise<Array<ChangeSetRow & { zone: string }>>;
    byId(domainId: number, id: number): Promise<ChangeSetRow | undefined>;
    /** A zone's change sets, newest first. */
    page(domainId: number, filter: ChangeFilter, w: Window): Promise<Page<ChangeSetRow>>;
    /** The records of a change set, removed then added, in the order they were written (at most `limit` of one side when `op` is given). */
    entries(changeSetId: number, limit?: number, op?: 0 | 1): Promise<ChangeEntryRow[]>;
    /** The records of several change sets at once, by change set id. */
    entriesOf(changeSetIds: number[]): Promise<Map<number, ChangeEntryRow[]>>;
    /** The zone's change sets from the one whose serial_before is `serial` on, oldest first. */
    from(domainId: number, serial: number): Promise<ChangeSetRow[]>;
    /** Removes change sets created before `at`; returns how many. */
    prune(at: string): Promise<number>;
  };
}
