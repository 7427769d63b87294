/**
 * Per-zone query statistics on the main thread: the DNS thread's batches (dns/analytics) written
 * to the store as this node's minute and hourly rows, a little at a time, and their retention.
 */
import { SLOT, type StatsBatch, type TopKind } from '../../core/query-stats-fields';
import { backgroundFailures, ZONE_RCODES, zoneAnswers } from '../../metrics';
import type { StatsRowAdd, TopRowAdd } from '../../store/types/stats';
import type { ServiceStore } from '../../store/types';

export const MINUTE_ROWS_SECONDS = 48 * 3600;
/** Names kept per zone, hour, list and node once an hour is trimmed. */
export const TOP_KEPT = 100;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Rows stored per transaction. */
const WRITE_CHUNK = 1000;

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
 * is dropped (the top lists are approximate by design, dns/analytics/top-k.ts), and memory stays
 * bounded however fast names come and however slow the store is.
 */
export const MAX_PENDING_TOP = 100_000;
/**
 * Count rows waiting in memory at most (one per zone and minute, one per zone and hour). They pile
 * up only while the store refuses the writes (the database away, a full disk): past this many, a
 * new minute's row is dropped and only its hour is kept, so a long outage costs the minute
 * resolution of its last part, never the hourly counts nor unbounded memory.
 */
export const MAX_PENDING_ROWS = 200_000;
/** After a write the store refused: the first wait before trying again, doubling up to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;

export interface StatsRecorder {
  /** Takes one batch; writes run one after another, in order. */
  record(batch: StatsBatch): void;
  /** Retention now (also run every 10 minutes). */
  prune(now?: number): Promise<void>;
  /** Waits for the writes taken so far. */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

export interface RecorderOptions {
  /** This node's name in the rows (several nodes' rows are summed when read). */
  node: string;
  /** STATS_DAYS: how long hourly rows are kept. */
  days: number;
  /** METRICS_PER_ZONE: count each zone's answers for /metrics too. */
  metricsPerZone: boolean;
  onError(err: unknown): void;
}

class QueryStatsRecorder implements StatsRecorder {
  /** The writes and prunes, one after another. */
  private queue: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** What the batches since the last write add, by row: the store adds each to what it holds. */
  private rows = new Map<string, StatsRowAdd & { counts: number[] }>();
  private top = new Map<string, TopRowAdd>();
  private writing = false;
  /** Above 0 while `flushed` or `close` waits: the writes go on without rests. */
  private hurry = 0;
  /** Ends the current rest at once. */
  private wake: (() => void) | null = null;
  /** The wait before the next try after a refused write (0: the last write went through). */
  private backoff = 0;
  /** The try after a refused write, waiting. */
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ServiceStore,
    private readonly opts: RecorderOptions,
  ) {
    this.timer = setInterval(() => this.run(() => this.pruneNow()), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  record(batch: StatsBatch): void {
    const hour = Math.floor(batch.minute / 3600) * 3600;
    for (const z of batch.zones) {
      this.addRow(z.id, 60, batch.minute, z.counts);
      this.addRow(z.id, 3600, hour, z.counts);
      for (const [name, count] of z.names) this.addTop(z.id, hour, 'names', name, count);
      for (const [name, count] of z.nxdomain) this.addTop(z.id, hour, 'nxdomain', name, count);
      if (this.opts.metricsPerZone) {
        let m = zoneAnswers.get(z.name);
        if (!m) zoneAnswers.set(z.name, (m = new Float64Array(ZONE_RCODES.length)));
        ZONE_RCODES.forEach((r, i) => (m[i]! += z.counts[SLOT[r === 'other' ? 'other_rcode' : r]] ?? 0));
      }
    }
    this.write();
  }

  prune(now?: number): Promise<void> {
    const done = this.queue.then(() => this.pruneNow(now));
    this.queue = done.catch(this.opts.onError);
    return done;
  }

  flushed(): Promise<void> {
    return this.drain();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.drain();
    if (this.retry) clearTimeout(this.retry);
  }

  private run(job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch(this.opts.onError);
  }

  private pruneNow(now = Date.now()): Promise<void> {
    const s = Math.floor(now / 1000);
    const hour = Math.floor(s / 3600) * 3600;
    return this.store.queryStats.prune(s - MINUTE_ROWS_SECONDS, s - this.opts.days * 86400, hour - 3600, TOP_KEPT);
  }

  private rest(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(t);
        this.wake = null;
        resolve();
      };
    });
  }

  private addRow(zone_id: number, step: 60 | 3600, at: number, counts: readonly number[]): void {
    const key = `${zone_id} ${step} ${at}`;
    const row = this.rows.get(key);
    if (!row) {
      if (step === 60 && this.rows.size >= MAX_PENDING_ROWS) return;
      this.rows.set(key, { zone_id, step, at, counts: Array.from(counts) });
    } else for (let i = 0; i < counts.length; i++) row.counts[i] = (row.counts[i] ?? 0) + counts[i]!;
  }

  private addTop(zone_id: number, at: number, kind: TopKind, name: string, count: number): void {
    const key = `${zone_id} ${at} ${kind} ${name}`;
    const row = this.top.get(key);
    if (row) row.count += count;
    else if (this.top.size < MAX_PENDING_TOP) this.top.set(key, { zone_id, at, kind, name, count });
  }

  /**
   * Writes what was added up, in transactions of WRITE_CHUNK rows: one commit each, none long
   * enough to keep the API's writes waiting, with a rest after each (WRITE_DUTY).
   */
  private write(): void {
    if (this.writing || this.retry || (this.rows.size === 0 && this.top.size === 0)) return;
    const someRows = [...this.rows.values()];
    const someTop = [...this.top.values()];
    this.rows = new Map();
    this.top = new Map();
    // WRITE_CHUNK rows a transaction, counts first, then top-list names: a batch of a small install is one transaction, its counts and names seen together.
    const chunks: { rows: (StatsRowAdd & { counts: number[] })[]; top: TopRowAdd[] }[] = [];
    for (let i = 0; i < someRows.length + someTop.length; i += WRITE_CHUNK) {
      const rows = someRows.slice(i, i + WRITE_CHUNK);
      const top = someTop.slice(Math.max(0, i - someRows.length), Math.max(0, i + WRITE_CHUNK - someRows.length));
      chunks.push({ rows, top });
    }
    this.writing = true;
    this.run(async () => {
      let rested = 0;
      for (let c = 0; c < chunks.length; c++) {
        const { rows, top } = chunks[c]!;
        const began = performance.now();
        try {
          await this.store.transaction((tx) => tx.queryStats.add(this.opts.node, rows, top));
          this.backoff = 0;
        } catch (err) {
          // The store refused (away, or its disk full): this chunk and the rest wait in memory, added to what comes meanwhile, and are tried again.
          this.refused(err, chunks.slice(c));
          break;
        }
        const ms = Math.min((performance.now() - began) * (1 / WRITE_DUTY - 1), MAX_WRITE_WAIT_MS - rested);
        if (this.hurry === 0 && ms >= 1) {
          rested += ms;
          await this.rest(ms);
        }
      }
      this.writing = false;
      // What came meanwhile: written at once (the rests above kept the duty).
      this.write();
    });
  }

  /** A write the store refused: logged, counted, its rows kept to be added to what comes, tried again after a wait. */
  private refused(err: unknown, chunks: { rows: (StatsRowAdd & { counts: number[] })[]; top: TopRowAdd[] }[]): void {
    this.opts.onError(err);
    backgroundFailures.inc({ job: 'analytics-write' });
    for (const { rows, top } of chunks) {
      for (const r of rows) this.addRow(r.zone_id, r.step, r.at, r.counts);
      for (const t of top) this.addTop(t.zone_id, t.at, t.kind, t.name, t.count);
    }
    this.backoff = Math.min(this.backoff ? this.backoff * 2 : RETRY_FIRST_MS, RETRY_MAX_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.write();
    }, this.backoff);
    this.retry.unref();
  }

  /**
   * Writes at once, without rests, and waits for it: what was taken so far is stored when this
   * resolves — unless the store refuses it, when it stays in memory for the next try.
   */
  private async drain(): Promise<void> {
    this.hurry++;
    try {
      this.wake?.();
      // A write resting when called starts the next on its way out: wait until none is left.
      do {
        if (this.retry) {
          // Waiting on a refused write: one try now, and no more if that is refused too.
          clearTimeout(this.retry);
          this.retry = null;
          this.write();
          await this.queue;
          if (this.retry) return;
          continue;
        }
        this.write();
        await this.queue;
      } while (this.writing || this.rows.size > 0 || this.top.size > 0);
    } finally {
      this.hurry--;
    }
  }
}

export function createStatsRecorder(store: ServiceStore, opts: RecorderOptions): StatsRecorder {
  return new QueryStatsRecorder(store, opts);
}
