/**
 * The API's token buckets in PostgreSQL, so a limit holds for the whole cluster and not per
 * node: one INSERT … ON CONFLICT DO UPDATE … RETURNING per request, on an UNLOGGED table
 * (migration 0008: no WAL, no fsync). The row lock orders concurrent takes of one key on any
 * node, and the database's clock is the one clock every node reads. Rows of buckets that have
 * filled up again are deleted at most once a minute, so the table holds only active keys.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import type { SharedBuckets } from '../types';

const PRUNE_EVERY_MS = 60_000;
const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)`;

export function postgresBuckets(db: Kysely<Database>): SharedBuckets {
  let prunedAt = 0;

  function prune(): void {
    const now = Date.now();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    // Off the request's path; a failure leaves the rows for the next minute's try.
    void sql`delete from rate_buckets where full_at < ${NOW_MS}`.execute(db).catch(() => {});
  }

  return {
    async take(key, { perSecond, burst }) {
      prune();
      // The bucket after refilling for the time since its last take, capped at the burst. A take
      // "later" than now (the database's clock stepped back) refills nothing rather than draining it.
      const refilled = sql`least(${burst}::float8, b.tokens + greatest(0::float8, excluded.at - b.at) * ${perSecond}::float8 / 1000)`;
      // An untouched bucket is full again at the latest one burst's worth of time from now.
      const fillMs = (burst / perSecond) * 1000;
      const { rows } = await sql<{ tokens: number; allowed: boolean }>`
        insert into rate_buckets as b (key, tokens, at, full_at, allowed)
        values (${key}, ${burst - 1}::float8, ${NOW_MS}, ${NOW_MS} + ${fillMs}::float8, ${burst >= 1})
        on conflict (key) do update set
          tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
          allowed = ${refilled} >= 1,
          at = excluded.at,
          full_at = excluded.full_at
        returning tokens, allowed`.execute(db);
      const { tokens, allowed } = rows[0]!;
      return allowed ? 0 : Math.ceil((1 - tokens) / perSecond);
    },
  };
}
