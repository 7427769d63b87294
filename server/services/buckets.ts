/**
 * Token buckets: in this process's memory, or in the store where several
 * nodes share it (PostgreSQL), so a client gets a limit once and not once per node. Used by the
 * API's rate limits and by RFC 2136 updates.
 */
import type { BucketRate, SharedBuckets } from '../store/types';

/** Token buckets by key; full buckets are forgotten when the map grows, so memory stays bounded. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly rate: BucketRate,
    private readonly now: () => number = () => performance.now(),
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    b.tokens = Math.min(this.rate.burst, b.tokens + ((now - b.at) / 1000) * this.rate.perSecond);
    b.at = now;
    if (this.buckets.size >= this.maxKeys && !this.buckets.has(key)) this.prune();
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.rate.perSecond);
  }

  private prune(): void {
    const now = this.now();
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate.perSecond >= this.rate.burst) this.buckets.delete(k);
    }
  }
}

/** Takes from `shared` buckets when the store has them, else from this process's own. */
export function bucketsFor(rate: BucketRate, shared: SharedBuckets | undefined): (key: string) => number | Promise<number> {
  if (shared) return (key) => shared.take(key, rate);
  const own = new TokenBuckets(rate);
  return (key) => own.take(key);
}
