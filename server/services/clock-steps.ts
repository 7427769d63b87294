/**
 * Steps of the wall clock this process has seen: NTP correcting a drifted clock, a VM resumed, the
 * time set by hand. The monotonic clock (performance.now) goes on through a step; the wall clock
 * (Date.now) jumps. Comparing how far each moved since the last reading tells a step from time
 * passing, so that an idle limit measured between two wall-clock readings can leave out the hour a
 * forward step added without anyone waiting it.
 */

/** Below this (plus slewing at NTP's most, 500 ppm, since the last reading), a difference is drift, not a step. */
const STEP_MS = 2_000;
const SLEW = 0.0005;
/**
 * A forward step larger than this is not left out: a VM suspended for a day (the monotonic clock
 * stops with it) really was idle, and a clock that far off was never a small correction.
 */
const MAX_FORGIVEN_MS = 2 * 3_600_000;
/** Steps are remembered this long (longer than any idle limit they are asked about). */
const KEEP_MS = 48 * 3_600_000;

export interface ClockSteps {
  /** The wall clock now, ms since 1970 (and a look for a step since the last reading). */
  now(): number;
  /**
   * The milliseconds forward steps added after the wall-clock moment `t` (a time read before
   * them), up to MAX_FORGIVEN_MS each: what `now() - t` counts that nobody waited.
   */
  forwardSince(t: number): number;
}

/** Watches this process's clocks; `wall` and `mono` are there for tests. */
export function watchClockSteps(wall: () => number = () => Date.now(), mono: () => number = () => performance.now()): ClockSteps {
  let lastMono = mono();
  let lastGap = wall() - lastMono;
  /** `at`: the wall clock when the step was seen (after it); `ms`: how far it jumped. */
  let steps: Array<{ at: number; ms: number }> = [];

  function now(): number {
    const w = wall();
    const m = mono();
    const ms = w - m - lastGap;
    if (Math.abs(ms) > STEP_MS + (m - lastMono) * SLEW) {
      steps = [...steps.filter((s) => s.at > w - KEEP_MS), { at: w, ms }];
    }
    lastGap = w - m;
    lastMono = m;
    return w;
  }

  return {
    now,
    forwardSince(t) {
      now();
      let ms = 0;
      // A moment read before the step is before the clock jumped from (`at - ms` is after the jump's start).
      for (const s of steps) if (s.ms > 0 && s.ms <= MAX_FORGIVEN_MS && t < s.at - s.ms) ms += s.ms;
      return ms;
    },
  };
}

/** A clock that never steps, for a test that sets the time itself. */
export const fixedClock = (now: () => number): ClockSteps => ({ now, forwardSince: () => 0 });
