/**
 * Per-zone query statistics on the main thread: the DNS thread's batches
 * (dns/query-stats.ts) written to the store as this node's minute and hourly rows, retention, and
 * the series and top lists the API reads (summed over nodes).
 */
import { SLOT, STAT_FIELDS, type StatCounts, type TopKind } from '../../core/query-stats-fields';
import { Invalid } from '../../core/errors';
import { ZONE_RCODES, zoneAnswers } from '../../metrics';
import type { StatsRowAdd, TopRowAdd } from '../../store/stats-types';
import type { ReadStore, ServiceStore } from '../../store/types';
import type { StatsBatch } from '../../dns/analytics/query-stats';

export const MINUTE_ROWS_SECONDS = 48 * 3600;
/** Names kept per zone, hour, list and node once an hour is trimmed. */
export const TOP_KEPT = 100;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Rows stored per transaction. */
const WRITE_CHUNK = 1000;

const countsOf = (a: readonly number[]): StatCounts => {
  const out = {} as StatCounts;
  for (let i = 0; i < STAT_FIELDS.length; i++) out[STAT_FIELDS[i]!] = a[i] ?? 0;
  return out;
};

export interface StatsRecorder {
  /** Takes one batch; writes run one after another, in order. */
  record(batch: StatsBatch): void;
  /** Retention now (also run every 10 minutes). */
  prune(now?: number): Promise<void>;
  /** Waits for the writes taken so far. */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The most of the main thread the writes may take, at any moment: after each transaction that took
 * C ms the writer rests C × (1/WRITE_DUTY − 1) before the next, so the DNS thread sharing its core
 * keeps the rest even while a minute of 10,000 zones (~24 transactions) is stored. Batches that
 * come meanwhile are added up in memory (rows of the same zone, minute, hour and name are one row)
 * and written by the next write. A small install writes each batch as it comes (a few ms).
 */
const WRITE_DUTY = 0.1;
/** The rests of one write add up to at most this: what waits in memory is a minute's batches at most, however slow the store. */
const MAX_WRITE_WAIT_MS = 60_000;
/**
 * Top-list names waiting in memory at most. A flood of random names fills every sketch anew each
 * period, so these do not add up the way counts do; past this many, a name not already waiting
 * is dropped (the top lists are approximate by design, dns/top-k.ts), and memory stays bounded
 * however fast names come and however slow the store is.
 */
export const MAX_PENDING_TOP = 100_000;

export function createStatsRecorder(store: ServiceStore, opts: { node: string; days: number; metricsPerZone: boolean; onError(err: unknown): void }): StatsRecorder {
  let queue: Promise<void> = Promise.resolve();
  const run = (job: () => Promise<void>) => {
    queue = queue.then(job).catch(opts.onError);
  };
  const prune = (now = Date.now()) => {
    const s = Math.floor(now / 1000);
    const hour = Math.floor(s / 3600) * 3600;
    return store.queryStats.prune(s - MINUTE_ROWS_SECONDS, s - opts.days * 86400, hour - 3600, TOP_KEPT);
  };
  const timer = setInterval(() => run(() => prune()), PRUNE_EVERY_MS);
  timer.unref();

  /** What the batches since the last write add, by row: the store adds each to what it holds. */
  let rows = new Map<string, StatsRowAdd & { counts: number[] }>();
  let top = new Map<string, TopRowAdd>();
  let writing = false;
  /** Above 0 while `flushed` or `close` waits: the writes go on without rests. */
  let hurry = 0;
  let wake: (() => void) | null = null;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = null;
        resolve();
      };
    });

  const addRow = (zone_id: number, step: 60 | 3600, at: number, counts: readonly number[]) => {
    const key = `${zone_id} ${step} ${at}`;
    const row = rows.get(key);
    if (!row) rows.set(key, { zone_id, step, at, counts: Array.from(counts) });
    else for (let i = 0; i < counts.length; i++) row.counts[i] = (row.counts[i] ?? 0) + counts[i]!;
  };
  const addTop = (zone_id: number, at: number, kind: TopKind, name: string, count: number) => {
    const key = `${zone_id} ${at} ${kind} ${name}`;
    const row = top.get(key);
    if (row) row.count += count;
    else if (top.size < MAX_PENDING_TOP) top.set(key, { zone_id, at, kind, name, count });
  };

  /**
   * Writes what was added up, in transactions of WRITE_CHUNK rows: one commit each, none long
   * enough to keep the API's writes waiting, with a rest after each (WRITE_DUTY).
   */
  const write = () => {
    if (writing || (rows.size === 0 && top.size === 0)) return;
    const someRows = [...rows.values()];
    const someTop = [...top.values()];
    rows = new Map();
    top = new Map();
    // WRITE_CHUNK rows a transaction, counts first, then top-list names: a batch of a small install is one transaction, its counts and names seen together.
    const jobs: Array<Parameters<ServiceStore['transaction']>[0]> = [];
    for (let i = 0; i < someRows.length + someTop.length; i += WRITE_CHUNK) {
      const r = someRows.slice(i, i + WRITE_CHUNK);
      const t = someTop.slice(Math.max(0, i - someRows.length), Math.max(0, i + WRITE_CHUNK - someRows.length));
      jobs.push((tx) => tx.queryStats.add(opts.node, r, t));
    }
    writing = true;
    run(async () => {
      let rested = 0;
      for (const job of jobs) {
        const began = performance.now();
        try {
          await store.transaction(job);
        } catch (err) {
          opts.onError(err);
        }
        const ms = Math.min((performance.now() - began) * (1 / WRITE_DUTY - 1), MAX_WRITE_WAIT_MS - rested);
        if (hurry === 0 && ms >= 1) {
          rested += ms;
          await rest(ms);
        }
      }
      writing = false;
      // What came meanwhile: written at once (the rests above kept the duty).
      write();
    });
  };
  /** Writes at once, without rests, and waits for it: what was taken so far is stored when this resolves. */
  const drain = async () => {
    hurry++;
    try {
      wake?.();
      // A write resting when called starts the next on its way out: wait until none is left.
      do {
        write();
        await queue;
      } while (writing || rows.size > 0 || top.size > 0);
    } finally {
      hurry--;
    }
  };

  return {
    record(batch) {
      const hour = Math.floor(batch.minute / 3600) * 3600;
      for (const z of batch.zones) {
        addRow(z.id, 60, batch.minute, z.counts);
        addRow(z.id, 3600, hour, z.counts);
        for (const [name, count] of z.names) addTop(z.id, hour, 'names', name, count);
        for (const [name, count] of z.nxdomain) addTop(z.id, hour, 'nxdomain', name, count);
        if (opts.metricsPerZone) {
          let m = zoneAnswers.get(z.name);
          if (!m) zoneAnswers.set(z.name, (m = new Float64Array(ZONE_RCODES.length)));
          ZONE_RCODES.forEach((r, i) => (m[i]! += z.counts[SLOT[r === 'other' ? 'other_rcode' : r]] ?? 0));
        }
      }
      write();
    },
    prune: (now) => {
      const done = queue.then(() => prune(now));
      queue = done.catch(opts.onError);
      return done;
    },
    flushed: drain,
    async close() {
      clearInterval(timer);
      await drain();
    },
  };
}

export interface SeriesQuery {
  from?: string;
  to?: string;
  step?: number;
}

/** Steps the dashboard and a default choose from: the smallest that gives at most 360 points. */
const STEPS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 86400];
export const MAX_POINTS = 1440;

function instant(field: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const t = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(t)) throw Invalid.field(field, 'must be a time in ISO 8601, like 2026-11-26T09:00:00Z');
  return Math.floor(t / 1000);
}

export type SeriesPoint = { at: string } & StatCounts;
export interface Series {
  from: string;
  to: string;
  step: number;
  points: SeriesPoint[];
  totals: StatCounts;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

/** A zone's counts per `step` seconds from `from` to `to` (default: the last hour by minute), every node's summed, empty steps as zeros. */
export async function zoneSeries(store: ReadStore, zoneId: number, q: SeriesQuery, now = Date.now()): Promise<Series> {
  const nowS = Math.floor(now / 1000);
  let to = instant('to', q.to, nowS);
  let from = instant('from', q.from, to - 3600);
  if (from >= to) throw Invalid.field('from', 'must be before to');
  // Minute rows reach back 48 h; before that only hourly rows remain.
  const hourly = from < nowS - MINUTE_ROWS_SECONDS + 60;
  const resolution = hourly ? 3600 : 60;
  const step = q.step ?? STEPS.find((s) => s >= resolution && (to - from) / s <= 360) ?? 86400;
  if (step % resolution !== 0) {
    throw Invalid.field('step', hourly ? 'must be a multiple of 3600 for a range that reaches back more than 48 hours (only hourly counts are kept)' : 'must be a multiple of 60 seconds');
  }
  from = Math.floor(from / step) * step;
  to = Math.ceil(to / step) * step;
  if ((to - from) / step > MAX_POINTS) throw Invalid.field('step', `too small for this range: at most ${MAX_POINTS} points`);
  const rows = await store.queryStats.series(zoneId, resolution, from, to, step);
  const byAt = new Map(rows.map((r) => [r.at, r]));
  const totals = countsOf([]);
  const points: SeriesPoint[] = [];
  for (let at = from; at < to; at += step) {
    const r = byAt.get(at);
    const counts = r ? countsOf(STAT_FIELDS.map((f) => r[f])) : countsOf([]);
    for (const f of STAT_FIELDS) totals[f] += counts[f];
    points.push({ at: iso(at), ...counts });
  }
  return { from: iso(from), to: iso(to), step, points, totals };
}

/** A zone's most asked names (or NXDOMAIN names) over whole hours from `from` to `to` (default: the last 24 h). */
export async function zoneTop(store: ReadStore, zoneId: number, q: { kind: TopKind; from?: string; to?: string; limit?: number }, now = Date.now()): Promise<{ kind: TopKind; from: string; to: string; names: Array<{ name: string; count: number }> }> {
  const nowS = Math.floor(now / 1000);
  let to = instant('to', q.to, nowS);
  let from = instant('from', q.from, to - 86400);
  if (from >= to) throw Invalid.field('from', 'must be before to');
  from = Math.floor(from / 3600) * 3600;
  to = Math.ceil(to / 3600) * 3600;
  const names = await store.queryStats.top(zoneId, q.kind, from, to, q.limit ?? 20);
  return { kind: q.kind, from: iso(from), to: iso(to), names };
}
