/**
 * Whether the main event loop is late, for load shedding (overload.ts). A timer asks to run every
 * SAMPLE_MS; how much later than asked it runs is how long the loop took to come round to it: the
 * wait every request on this thread now has before anything of it is done, whatever it is.
 *
 * The thresholds: a request slice (core/pause.ts) turns the loop every 40 ms, so a healthy loop
 * lags a few tens of milliseconds at most; one long task (parsing a large zone file) may hold it a
 * few hundred once, which is no reason to refuse anyone. The loop counts as late when LATE_IN_A_ROW
 * samples in a row each lag more than the threshold (HTTP_SHED_LOOP_DELAY_MS, 200 ms by default: a
 * delay a person notices on every click, several times what a busy but healthy loop shows), so it
 * has stayed behind for at least two threshold-lengths; it is on time again at the first sample
 * under the threshold: refusing new work is what lets it catch up, so it need not prove it twice.
 */

/** How often the loop is sampled (a timer: costs nothing next to a request). */
export const SAMPLE_MS = 100;
/** Samples in a row over the threshold before the loop counts as late. */
export const LATE_IN_A_ROW = 2;

/** The judgement over successive samples, apart from the timer (the tests feed it lags). */
export class LoopLateness {
  private over = 0;
  constructor(private readonly thresholdMs: number) {}

  /** One sample: how many milliseconds later than asked the timer ran. */
  observe(lagMs: number): void {
    this.over = lagMs > this.thresholdMs ? this.over + 1 : 0;
  }

  get late(): boolean {
    return this.over >= LATE_IN_A_ROW;
  }
}

export interface LoopDelay {
  /** Whether the loop is late now (the last samples). */
  late(): boolean;
  stop(): void;
}

/** Samples this thread's event loop until `stop`; the timer never keeps the process alive. */
export function watchLoopDelay(thresholdMs: number, everyMs = SAMPLE_MS): LoopDelay {
  const judge = new LoopLateness(thresholdMs);
  let stopped = false;
  let timer: NodeJS.Timeout;
  const arm = () => {
    const asked = performance.now() + everyMs;
    timer = setTimeout(() => {
      judge.observe(performance.now() - asked);
      if (!stopped) arm();
    }, everyMs);
    timer.unref();
  };
  arm();
  return {
    late: () => judge.late,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
