/**
 * Slows down password guessing without handing a guesser the power to lock a user out. Failures
 * are counted under three keys, each waiting twice as long after each new failure past its free
 * ones (capped):
 *
 * - the user from this address (`pair:`): 5 free failures. What stops guessing at one account
 *   from one place; wrong second-factor codes count here too.
 * - the address (`addr:`, an IPv6 client by its /64): 5 free failures, whatever the usernames,
 *   so one address cannot try a few passwords on every account. A right password takes its
 *   attempt back (an office behind one address is not held up by a colleague's typos).
 * - the user from everywhere (`user:`): bounds guessing spread over many addresses. Past
 *   `userFreeFailures` (50) it holds only addresses that have failed for this user themselves;
 *   past `userHardFailures` (1,000) every address. So the owner, at an address with no failures
 *   of its own, signs in whatever an attacker tried elsewhere, unless that attacker spent a
 *   thousand guesses in a quarter of an hour from as many addresses.
 *
 * The failures are counted in the database (`sign_in_failures`), so the throttle holds across
 * every node behind a load balancer and survives a restart; sign-ins are rare enough that a
 * write per failure costs nothing. Keys without a failure for `forgetAfterMs` are forgotten,
 * and their rows deleted at most once a minute.
 */
import ipaddr from 'ipaddr.js';
import type { ServiceRepos, SignInFailureRow } from '../../store/types';

export interface ThrottleOptions {
  /** Failures allowed under a user's address or an address before waiting starts. */
  freeFailures: number;
  /** Failures allowed under a user from every address before addresses that failed for them wait. */
  userFreeFailures?: number;
  /** Failures allowed under a user from every address before every address waits. */
  userHardFailures?: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long is forgotten. */
  forgetAfterMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { freeFailures: 5, userFreeFailures: 50, userHardFailures: 1000, baseDelayMs: 1000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 };

const PRUNE_EVERY_MS = 60_000;

/** Who tries: the username typed (for a sign-in with a password), and the client's address. */
export interface Attempt {
  username?: string;
  address: string | undefined;
}

/** The address as the throttle counts it: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64, which one client holds whole. */
export function throttledAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.process(address);
  } catch {
    return address.slice(0, 64);
  }
  if (a.kind() === 'ipv4') return a.toString();
  const parts = (a as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The keys of an attempt. */
export function keysOf(attempt: Attempt): { pair?: string; addr: string; user?: string } {
  const addr = throttledAddress(attempt.address);
  const name = attempt.username?.trim().toLowerCase();
  return name === undefined ? { addr: `addr:${addr}` } : { pair: `pair:${name}@${addr}`, addr: `addr:${addr}`, user: `user:${name}` };
}

export function createSignInThrottle(failures: ServiceRepos['signInFailures'], opts: ThrottleOptions = DEFAULT_THROTTLE, now: () => number = Date.now) {
  let prunedAt = 0;
  const userFree = opts.userFreeFailures ?? DEFAULT_THROTTLE.userFreeFailures!;
  const userHard = opts.userHardFailures ?? DEFAULT_THROTTLE.userHardFailures!;

  /** Milliseconds a key's row still makes the caller wait, past `free` failures. */
  function waitFor(row: SignInFailureRow | undefined, free: number, at: number): number {
    if (!row || at - row.last_at > opts.forgetAfterMs || row.failures < free) return 0;
    const delay = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (row.failures - free));
    // A last failure far in the future: this clock stepped back since. Its delay has run out in real
    // time; the next failure is then stamped on this clock and waits as usual. A few seconds ahead is
    // another node's clock: it waits, never more than the delay.
    if (row.last_at - at > opts.maxDelayMs) return 0;
    return Math.min(delay, Math.max(0, row.last_at + delay - at));
  }

  function waitOf(attempt: Attempt, rows: readonly SignInFailureRow[], at: number): number {
    const keys = keysOf(attempt);
    const row = (key: string | undefined) => (key === undefined ? undefined : rows.find((r) => r.key === key));
    const live = (r: SignInFailureRow | undefined) => r !== undefined && r.failures > 0 && at - r.last_at <= opts.forgetAfterMs;
    const user = row(keys.user);
    return Math.max(
      waitFor(row(keys.pair), opts.freeFailures, at),
      waitFor(row(keys.addr), opts.freeFailures, at),
      // The user's count holds an address that failed for this user itself, or, far past it, every address.
      live(row(keys.pair)) ? waitFor(user, userFree, at) : 0,
      waitFor(user, userHard, at),
    );
  }

  const all = (keys: ReturnType<typeof keysOf>) => [keys.pair, keys.addr, keys.user].filter((k): k is string => k !== undefined);

  async function prune(at: number): Promise<void> {
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    await failures.prune(at - opts.forgetAfterMs);
  }

  return {
    /** Milliseconds this attempt must still wait; 0 when free. */
    async retryAfterMs(attempt: Attempt): Promise<number> {
      return waitOf(attempt, await failures.byKeys(all(keysOf(attempt))), now());
    },

    /**
     * Reserves an attempt before the password is checked: 0 and one more failure counted under
     * each of its keys, or the milliseconds to wait (nothing counted). However many guesses arrive
     * at once, no more are checked than the counts allow. The caller then settles it: `passwordRight`,
     * `succeeded`, or `notAGuess`; a failure needs nothing more.
     */
    async reserve(attempt: Attempt): Promise<number> {
      const at = now();
      const wait = await failures.reserve(all(keysOf(attempt)), at, at - opts.forgetAfterMs, (rows) => waitOf(attempt, rows, at));
      if (wait === 0) await prune(at);
      return wait;
    },

    /** One more failure for this attempt (without a reservation). */
    async failed(attempt: Attempt): Promise<void> {
      const at = now();
      await failures.add(all(keysOf(attempt)), at, at - opts.forgetAfterMs);
      await prune(at);
    },

    /**
     * The password was right: not a guess from this address, whose attempt goes back. The user's
     * keys stay counted until the second factor, if one is asked, is right too.
     */
    async passwordRight(attempt: Attempt): Promise<void> {
      await failures.forgive([keysOf(attempt).addr]);
    },

    /** Signed in: this address's failures for the user are forgotten, and the attempt is no failure for the user. */
    async succeeded(attempt: Attempt): Promise<void> {
      const keys = keysOf(attempt);
      if (keys.pair) await failures.clear([keys.pair]);
      if (keys.user) await failures.forgive([keys.user]);
    },

    /** The attempt turned out no guess at all (a right password still waiting for its code): every reservation goes back. */
    async notAGuess(attempt: Attempt, opts: { addressForgiven?: boolean } = {}): Promise<void> {
      const keys = keysOf(attempt);
      await failures.forgive([keys.pair, keys.user, opts.addressForgiven ? undefined : keys.addr].filter((k): k is string => k !== undefined));
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
