/**
 * Slows down password guessing: after a few failed sign-ins for one username or from one
 * client address, further attempts must wait, twice as long after each new failure (capped).
 * The failures are counted in the database (`sign_in_failures`), so the throttle holds across
 * every node behind a load balancer and survives a restart; sign-ins are rare enough that a
 * write per failure costs nothing. Keys without a failure for `forgetAfterMs` are forgotten,
 * and their rows deleted at most once a minute.
 */
import type { ServiceRepos } from '../store/types';

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

export function createSignInThrottle(failures: ServiceRepos['signInFailures'], opts: ThrottleOptions = DEFAULT_THROTTLE, now: () => number = Date.now) {
  let prunedAt = 0;

  function waitOf(rows: readonly { failures: number; last_at: number }[], at: number): number {
    let wait = 0;
    for (const e of rows) {
      if (at - e.last_at > opts.forgetAfterMs || e.failures < opts.freeFailures) continue;
      const delay = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (e.failures - opts.freeFailures));
      wait = Math.max(wait, e.last_at + delay - at);
    }
    return wait;
  }

  return {
    /** Milliseconds the caller must still wait before trying any of these keys; 0 when free. */
    async retryAfterMs(keys: string[]): Promise<number> {
      return waitOf(await failures.byKeys(keys), now());
    },

    /**
     * Reserves an attempt before the password is checked (DESIGN.md §17): 0 and one more failure
     * counted under each key, or the milliseconds to wait (nothing counted). However many guesses
     * arrive at once, at most `freeFailures` are checked before the waiting starts. A success
     * then clears the user's key (`succeeded`) and takes the address's reservation back.
     */
    async reserve(keys: string[]): Promise<number> {
      const at = now();
      const wait = await failures.reserve(keys, at, at - opts.forgetAfterMs, (rows) => waitOf(rows, at));
      if (wait === 0 && at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        await failures.prune(at - opts.forgetAfterMs);
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

    /** Takes back a reservation that turned out a success (the address's key). */
    async forgive(keys: string[]): Promise<void> {
      await failures.forgive(keys);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
