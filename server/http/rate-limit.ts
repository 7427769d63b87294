/**
 * Rate limits on the API: a token bucket per client address (before authentication, so a
 * flood of bad tokens is stopped cheaply) and one per API token. Over the limit: 429 with
 * Retry-After and the standard error body.
 *
 * Where the store is shared by several nodes (PostgreSQL), the buckets live in it, so a client
 * gets the limit once and not once per node behind the load balancer; that is
 * one small write per bucket per request. On SQLite (one node) they stay in memory: the same
 * write there would cost an fsync per request, for nothing another node could read.
 */
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from './client-address';
import type { BucketRate, SharedBuckets } from '../store/types';
import { asMiddleware, type Check } from './checks';
import { HttpError } from './http-error';

export type { BucketRate } from '../store/types';
export { TokenBuckets } from '../services/buckets';
import { bucketsFor } from '../services/buckets';

function limited(seconds: number, what: string): HttpError {
  return new HttpError(429, 'rate_limited', `too many requests for this ${what}; retry in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
}

/** Refuses when a bucket said to wait; in-memory buckets answer at once, so no promise then. */
function refuse(wait: number | Promise<number>, what: string): void | Promise<void> {
  if (typeof wait !== 'number') return wait.then((w) => refuse(w, what));
  if (wait > 0) throw limited(wait, what);
}

/** The per-address bucket; null when the limit is off. */
export function addressLimit(rate: BucketRate | null, shared?: SharedBuckets): Check | null {
  if (!rate) return null;
  const take = bucketsFor(rate, shared);
  return (c) => {
    const address = clientAddress(c);
    if (address !== undefined) return refuse(take(`address:${address}`), 'address');
  };
}

/** The per-token bucket, after authentication; null when the limit is off. */
export function tokenLimit(rate: BucketRate | null, shared?: SharedBuckets): Check<TokenEnv> | null {
  if (!rate) return null;
  const take = bucketsFor(rate, shared);
  return (c) => refuse(take(`token:${c.get('principal').token.id}`), 'token');
}

type TokenEnv = { Variables: { principal: { token: { id: number } } } };

export const limitByAddress = (rate: BucketRate | null, shared?: SharedBuckets): MiddlewareHandler => asMiddleware(addressLimit(rate, shared));
export const limitByToken = (rate: BucketRate | null, shared?: SharedBuckets): MiddlewareHandler<TokenEnv> => asMiddleware(tokenLimit(rate, shared));
