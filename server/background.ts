/**
 * Background jobs (re-signing, history pruning, the delegation check): each runs at start and
 * then every `everyMs`. A run that fails is logged with the job (and the zone, when the job
 * names one), counted in /metrics as zonedeck_background_failures_total{job}, and tried again
 * after 30 s, 1 min, 2 min … (doubling, never later than the next regular run), so a passing
 * fault costs minutes, not a whole period. Runs of one job never overlap.
 */
import { countBackgroundFailure } from './counters';
import type { Logger } from './log';

/** A failure that concerns one zone: the log line names it. */
export class ZoneJobError extends Error {
  constructor(
    readonly zone: string,
    override readonly cause: unknown,
  ) {
    super(`${zone}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export const FIRST_RETRY_MS = 30_000;

export interface Job {
  /** Runs the job now (unless a run is in progress); resolves when it has finished. */
  runNow(): Promise<void>;
  stop(): void;
}

export interface JobOptions {
  everyMs: number;
  firstRetryMs?: number;
  /** Whether to run once at start (default true). */
  atStart?: boolean;
}

/**
 * `task` reports per-zone failures by throwing a ZoneJobError, or an AggregateError of them
 * when several zones failed and the others went on.
 */
export function startJob(name: string, task: () => Promise<void>, log: Logger, opts: JobOptions): Job {
  const firstRetry = opts.firstRetryMs ?? FIRST_RETRY_MS;
  let retryMs = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };

  const report = (err: unknown) => {
    const failures = err instanceof AggregateError ? err.errors : [err];
    for (const f of failures) {
      countBackgroundFailure(name);
      if (f instanceof ZoneJobError) log.error({ job: name, zone: f.zone, err: f.cause, retry_in_s: retryMs / 1000 }, `${name} failed for ${f.zone}; trying again`);
      else log.error({ job: name, err: f, retry_in_s: retryMs / 1000 }, `${name} failed; trying again`);
    }
  };

  const run = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        await task();
        retryMs = 0;
        schedule(opts.everyMs);
      } catch (err) {
        retryMs = retryMs === 0 ? firstRetry : Math.min(retryMs * 2, opts.everyMs);
        report(err);
        schedule(retryMs);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  if (opts.atStart === false) schedule(opts.everyMs);
  else void run();
  return {
    runNow: run,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
