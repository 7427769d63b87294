/**
 * Slows down password guessing: after a few failed sign-ins for one username or from one
 * client address, further attempts must wait, twice as long after each new failure (capped).
 * In memory: a restart forgets it, which costs an attacker a restart they cannot cause.
 */
export interface ThrottleOptions {
  /** Failures allowed before waiting starts. */
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long is forgotten. */
  forgetAfterMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 };

interface Entry {
  failures: number;
  last: number;
}

const MAX_KEYS = 10_000;

export function createSignInThrottle(opts: ThrottleOptions = DEFAULT_THROTTLE, now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  function waitFor(key: string, at: number): number {
    const e = entries.get(key);
    if (!e) return 0;
    if (at - e.last > opts.forgetAfterMs) {
      entries.delete(key);
      return 0;
    }
    if (e.failures < opts.freeFailures) return 0;
    const delay = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (e.failures - opts.freeFailures));
    return Math.max(0, e.last + delay - at);
  }

  return {
    /** Milliseconds the caller must still wait before trying any of these keys; 0 when free. */
    retryAfterMs(keys: string[]): number {
      const at = now();
      return Math.max(0, ...keys.map((k) => waitFor(k, at)));
    },

    failed(keys: string[]): void {
      const at = now();
      if (entries.size > MAX_KEYS) {
        for (const [k, e] of entries) if (at - e.last > opts.forgetAfterMs) entries.delete(k);
        // Still full: drop the oldest rather than grow without bound.
        while (entries.size > MAX_KEYS) entries.delete(entries.keys().next().value!);
      }
      for (const key of keys) {
        const e = entries.get(key);
        entries.set(key, { failures: (e && at - e.last <= opts.forgetAfterMs ? e.failures : 0) + 1, last: at });
      }
    },

    succeeded(keys: string[]): void {
      for (const key of keys) entries.delete(key);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
