/** The store's side of per-zone query statistics (migration 0016). */
import type { StatCounts, TopKind } from '../../core/query-stats-fields';

/** One row to add: a zone's counts in a minute (step 60) or an hour (step 3600). */
export interface StatsRowAdd {
  zone_id: number;
  step: 60 | 3600;
  at: number;
  /** One number per field of STAT_FIELDS (core/query-stats-fields.ts), in its order: as the DNS thread counts them. */
  counts: readonly number[];
}

export interface TopRowAdd {
  zone_id: number;
  at: number;
  kind: TopKind;
  name: string;
  count: number;
}

export interface QueryStatsRepo {
  /** Adds counts to this node's rows (created at the first add). */
  add(node: string, rows: readonly StatsRowAdd[], top: readonly TopRowAdd[]): Promise<void>;
  /** Sums over nodes, per bucket of `bucket` seconds (a multiple of `step`), rows with from ≤ at < to. */
  series(zoneId: number, step: 60 | 3600, from: number, to: number, bucket: number): Promise<Array<{ at: number } & StatCounts>>;
  /** The most counted names of a list over the hours from ≤ at < to, summed over nodes. */
  top(zoneId: number, kind: TopKind, from: number, to: number, limit: number): Promise<Array<{ name: string; count: number }>>;
  /** Deletes minute rows before `minutesBefore`, hourly rows and top names before `hoursBefore`; keeps `keepTop` names per zone, hour, list and node from `trimFrom` on. */
  prune(minutesBefore: number, hoursBefore: number, trimFrom: number, keepTop: number): Promise<void>;
}
