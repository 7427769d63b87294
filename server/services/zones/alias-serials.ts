/**
 * Secondaries hold the addresses at a zone's ALIAS names as of their last transfer, and transfer
 * again only for a new serial. So when the addresses of any of its targets change, the zone gets a
 * new serial (a change set of source `alias`, which the usual NOTIFY follows), at most once per
 * `minIntervalMs` per zone, however many of its names changed: a CDN that rotates its addresses
 * every minute must not rewrite the history every minute. A change inside the interval is bumped
 * when it ends. The interval is judged by the zone's `updated_at` under its lock, so several DNS
 * nodes sharing a database, each resolving on its own, bump a zone once. The DNS thread, which
 * resolves the targets, tells the main thread (dns/thread.ts), whose change sets write the bump.
 * A bump that fails (a lost connection, a full disk) is reported with its zone and tried again
 * after `retryMs`, doubling up to the interval (or eight times `retryMs`), until it succeeds or the
 * zone is gone.
 */
import type { ChangeSets } from '../changes/change-sets';

/** Fifteen minutes: secondaries trail the target by at most this plus a transfer. */
export const ALIAS_BUMP_MS = 15 * 60_000;

export interface AliasSerials {
  /** A zone's ALIAS addresses changed. */
  changed(zoneId: number): void;
  close(): void;
}

/** The first retry of a failed bump; it doubles up to the interval. */
export const ALIAS_RETRY_MS = 30_000;

export function createAliasSerials(changes: ChangeSets, opts: { minIntervalMs?: number; retryMs?: number; onError?(err: unknown, zoneId: number, retryInMs: number): void } = {}): AliasSerials {
  const interval = opts.minIntervalMs ?? ALIAS_BUMP_MS;
  const firstRetry = opts.retryMs ?? ALIAS_RETRY_MS;
  /** The next retry's wait, by zone, while its bumps fail. */
  const retries = new Map<number, number>();
  const actor = { username: 'zonedeck', credential: 'system' };
  const waiting = new Map<number, NodeJS.Timeout>();
  let closed = false;

  async function bump(zoneId: number): Promise<void> {
    const { result: wait } = await changes.update(
      async (tx) => (await tx.domains.byId(zoneId)) ?? Promise.reject(new Error('gone')),
      { source: 'alias', actor, comment: 'the ALIAS target’s addresses changed: a new serial so secondaries transfer them' },
      (u) => {
        // At most one bump per interval: sooner, it waits out the rest of it.
        const wait = Date.parse(u.zone.updated_at) + interval - u.now.getTime();
        u.touch = wait <= 0;
        return wait;
      },
    );
    if (wait > 0) later(zoneId, wait);
  }

  function later(zoneId: number, ms: number): void {
    if (closed || waiting.has(zoneId)) return;
    const timer = setTimeout(() => {
      waiting.delete(zoneId);
      void bump(zoneId).then(
        () => retries.delete(zoneId),
        (e: unknown) => {
          if (e instanceof Error && e.message === 'gone') return void retries.delete(zoneId);
          const wait = retries.get(zoneId) ?? firstRetry;
          retries.set(zoneId, Math.min(wait * 2, Math.max(interval, firstRetry * 8)));
          opts.onError?.(e, zoneId, wait);
          later(zoneId, wait);
        },
      );
    }, ms);
    timer.unref();
    waiting.set(zoneId, timer);
  }

  return {
    changed: (zoneId) => later(zoneId, 0),
    close() {
      closed = true;
      for (const t of waiting.values()) clearTimeout(t);
      waiting.clear();
    },
  };
}
