/**
 * Slows down password guessing: after a few failed sign-ins for one username or from one
 * client address, further attempts must wait, twice as long after each new failure (capped).
 * The failures are counted in the database (`sign_in_failures`), so the throttle holds across
 * every node behind a load balancer and survives a restart; sign-ins are rare enough that a
 * write per failure costs nothing. Keys without a failure for `forgetAfterMs` are forgotten,
 * and their rows deleted at most once a minute.
 */
import type { Repos } from '../store/types';

export interface ThrottleOptions {
  /** Failures allowed before waiting starts. */
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long is forgotten. */
  forgetAfterMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 };

const PRUNE_EVERY_MS = 60_000;

export function createSignInThrottle(failures: Repos['signInFailures'], opts: ThrottleOptions = DEFAULT_THROTTLE, now: () => number = Date.now) {
  let prunedAt = 0;

  return {
    /** Milliseconds the caller must still wait before trying any of these keys; 0 when free. */
    async retryAfterMs(keys: string[]): Promise<number> {
      const at = now();
      let wait = 0;
      for (const e of await failures.byKeys(keys)) {
        if (at - e.last_at > opts.forgetAfterMs || e.failures < opts.freeFailures) continue;
        const delay = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (e.failures - opts.freeFailures));
        wait = Math.max(wait, e.last_at + delay - at);
      }
      return wait;
    },

    async failed(keys: string[]): Promise<void> {
      const at = now();
      await failures.add(keys, at, at - opts.forgetAfterMs);
      if (at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        await failures.prune(at - opts.forgetAfterMs);
      }
    },

    async succeeded(keys: string[]): Promise<void> {
      await failures.clear(keys);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
