/**
 * Secondaries hold the addresses at a zone's ALIAS names as of their last transfer, and transfer
 * again only for a new serial. So when the addresses of any of its targets change, the zone gets a
 * new serial (a change set of source `alias`, which the usual NOTIFY follows), at most once per
 * `minIntervalMs` per zone, however many of its names changed: a CDN that rotates its addresses
 * every minute must not rewrite the history every minute. A change inside the interval is bumped
 * when it ends. The interval is judged by the zone's `updated_at` under its lock, so several DNS
 * nodes sharing a database, each resolving on its own, bump a zone once. The DNS thread, which
 * resolves the targets, tells the main thread (dns/thread.ts), whose change sets write the bump.
 */
import type { ChangeSets } from './change-sets';

/** Fifteen minutes: secondaries trail the target by at most this plus a transfer. */
export const ALIAS_BUMP_MS = 15 * 60_000;

export interface AliasSerials {
  /** A zone's ALIAS addresses changed. */
  changed(zoneId: number): void;
  close(): void;
}

export function createAliasSerials(changes: ChangeSets, opts: { minIntervalMs?: number; onError?(err: unknown): void } = {}): AliasSerials {
  const interval = opts.minIntervalMs ?? ALIAS_BUMP_MS;
  const actor = { username: 'zonedeck', credential: 'system' };
  const waiting = new Map<number, NodeJS.Timeout>();
  let closed = false;

  async function bump(zoneId: number): Promise<void> {
    let wait = 0;
    await changes.apply(
      async (tx) => (await tx.domains.byId(zoneId)) ?? Promise.reject(new Error('gone')),
      { source: 'alias', actor, comment: 'the ALIAS target’s addresses changed: a new serial so secondaries transfer them' },
      (edit) => {
        wait = Date.parse(edit.zone.updated_at) + interval - edit.now.getTime();
        edit.touch = wait <= 0;
      },
    );
    if (wait > 0) later(zoneId, wait);
  }

  function later(zoneId: number, ms: number): void {
    if (closed || waiting.has(zoneId)) return;
    const timer = setTimeout(() => {
      waiting.delete(zoneId);
      void bump(zoneId).catch((e: unknown) => (e instanceof Error && e.message === 'gone' ? undefined : opts.onError?.(e)));
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
