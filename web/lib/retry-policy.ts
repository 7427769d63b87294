/**
 * When the dashboard asks again after a failure. A 4xx will not get better by asking again; a 503
 * or 429 says how long to wait (Retry-After), and asking sooner or more often only adds to the load
 * of a server that is shedding it or waiting for its database: one more try after that wait, then
 * the outage banner's poll takes over (it refetches what failed once the service answers again).
 * A 507 (the disk is full) does not clear by itself within a query's life: no retry.
 */
import { ApiError } from './api-client';
import { DEFAULT_RETRY_AFTER_S } from './outage';

/** The longest wait a Retry-After may ask of a query's retry or the banner's poll. */
export const MAX_WAIT_MS = 30_000;

/** Other failures (the network, a 500) as TanStack Query retries them by default: twice, backing off. */
const OTHER_RETRIES = 2;

const asksToWait = (e: ApiError) => e.status === 503 || e.status === 429;
const waitMs = (e: ApiError) => (e.retryAfterS ?? DEFAULT_RETRY_AFTER_S) * 1000;

/** Whether a failed query is sent again: its `failureCount`-th failure was `err`. */
export function shouldRetryQuery(failureCount: number, err: unknown): boolean {
  if (err instanceof ApiError) {
    if (err.status === 507) return false;
    // A longer wait than a page should sit loading for: the failure shows, the banner's poll retries.
    if (asksToWait(err)) return failureCount < 1 && waitMs(err) <= MAX_WAIT_MS;
    if (err.status >= 400 && err.status < 500) return false;
  }
  return failureCount < OTHER_RETRIES;
}

/** How long before the next try: what Retry-After said, else TanStack Query's own backoff. */
export function queryRetryDelay(failureCount: number, err: unknown): number {
  if (err instanceof ApiError && asksToWait(err)) return waitMs(err);
  return Math.min(1000 * 2 ** failureCount, MAX_WAIT_MS);
}

/**
 * The wait before the banner's `attempt`-th poll (0 first): never less than Retry-After, then half
 * as long again each time it still finds the service read-only, up to MAX_WAIT_MS.
 */
export function pollDelayMs(attempt: number, retryAfterS: number): number {
  const least = Math.max(retryAfterS, 1) * 1000;
  return Math.min(Math.max(least, least * 1.5 ** attempt), Math.max(least, MAX_WAIT_MS));
}
