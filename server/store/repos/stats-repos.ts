/**
 * Per-zone query statistics in the store (migration 0016): counts added with an upsert per row
 * (`value = value + excluded.value`, the same SQL on SQLite and PostgreSQL), read as sums over
 * nodes and buckets.
 */
import { sql, type Kysely } from 'kysely';
import { STAT_FIELDS, type StatCounts, type StatField } from '../../core/query-stats-fields';
import type { Dialect } from '../migrate';
import { Prepared } from './prepared';
import { rowsOf, type RepoContext } from './repo-kit';
import type { QueryStatsRepo } from '../types/stats';

type StatsTables = {
  query_stats: { zone_id: number; step: number; at: number; node: string } & Record<StatField, number>;
  query_top: { zone_id: number; at: number; kind: string; name: string; node: string; count: number };
};

/** Rows per INSERT on PostgreSQL (one round trip for many); each row takes 35 parameters. */
const CHUNK = 400;

/** A row's counts as columns. */
const countsOf = (counts: readonly number[]) => Object.fromEntries(STAT_FIELDS.map((f, k) => [f, counts[k] ?? 0])) as Record<StatField, number>;
const added = Object.fromEntries(STAT_FIELDS.map((f) => [f, sql`query_stats.${sql.ref(f)} + excluded.${sql.ref(f)}`]));
const STATS_COLUMNS = ['zone_id', 'step', 'at', 'node', ...STAT_FIELDS] as const;
const TOP_COLUMNS = ['zone_id', 'at', 'kind', 'name', 'node', 'count'] as const;
/**
 * One row's upsert, compiled once: SQLite runs it as a cached statement per row (inside the
 * caller's transaction), where a kysely INSERT of 400 rows was built and compiled anew each time
 * (two thirds of the CPU of storing 10,000 zones' counts).
 */
const statsUpsert = new Prepared((anyDb, a) =>
  (anyDb as unknown as Kysely<StatsTables>)
    .insertInto('query_stats')
    .values(rowsOf(STATS_COLUMNS, 1, a)[0]!)
    .onConflict((oc) => oc.columns(['zone_id', 'step', 'at', 'node']).doUpdateSet(added as any)),
);
const topUpsert = new Prepared((anyDb, a) =>
  (anyDb as unknown as Kysely<StatsTables>)
    .insertInto('query_top')
    .values(rowsOf(TOP_COLUMNS, 1, a)[0]!)
    .onConflict((oc) => oc.columns(['zone_id', 'at', 'kind', 'name', 'node']).doUpdateSet({ count: sql`query_top.count + excluded.count` })),
);

export function createStatsRepos(anyDb: Kysely<any>, dialect: Dialect, p: RepoContext['p']): { queryStats: QueryStatsRepo } {
  const db = anyDb as Kysely<StatsTables>;
  return {
    queryStats: {
      add: async (node, rows, top) => {
        if (dialect === 'sqlite') {
          for (const r of rows) {
            const args: unknown[] = [r.zone_id, r.step, r.at, node];
            for (let i = 0; i < STAT_FIELDS.length; i++) args.push(r.counts[i] ?? 0);
            await p.run(statsUpsert, args);
          }
          for (const t of top) await p.run(topUpsert, [t.zone_id, t.at, t.kind, t.name, node, t.count]);
          return;
        }
        for (let i = 0; i < rows.length; i += CHUNK) {
          await db
            .insertInto('query_stats')
            .values(rows.slice(i, i + CHUNK).map((r) => ({ zone_id: r.zone_id, step: r.step, at: r.at, node, ...countsOf(r.counts) })))
            .onConflict((oc) => oc.columns(['zone_id', 'step', 'at', 'node']).doUpdateSet(added as any))
            .execute();
        }
        for (let i = 0; i < top.length; i += CHUNK) {
          await db
            .insertInto('query_top')
            .values(top.slice(i, i + CHUNK).map((t) => ({ ...t, node })))
            .onConflict((oc) => oc.columns(['zone_id', 'at', 'kind', 'name', 'node']).doUpdateSet({ count: sql`query_top.count + excluded.count` }))
            .execute();
        }
      },
      series: async (zoneId, step, from, to, bucket) => {
        const t = sql<number>`(at / ${sql.lit(bucket)}) * ${sql.lit(bucket)}`;
        const rows = await db
          .selectFrom('query_stats')
          .select(t.as('t'))
          .select(STAT_FIELDS.map((f) => sql<number>`sum(${sql.ref(f)})`.as(f)))
          .where('zone_id', '=', zoneId)
          .where('step', '=', step)
          .where('at', '>=', from)
          .where('at', '<', to)
          .groupBy(t)
          .orderBy('t')
          .execute();
        return rows.map((r: any) => {
          const out = { at: Number(r.t) } as { at: number } & StatCounts;
          for (const f of STAT_FIELDS) out[f] = Number(r[f] ?? 0);
          return out;
        });
      },
      top: async (zoneId, kind, from, to, limit) => {
        const rows = await db
          .selectFrom('query_top')
          .select(['name', sql<number>`sum(count)`.as('n')])
          .where('zone_id', '=', zoneId)
          .where('kind', '=', kind)
          .where('at', '>=', from)
          .where('at', '<', to)
          .groupBy('name')
          .orderBy('n', 'desc')
          .orderBy('name')
          .limit(limit)
          .execute();
        return rows.map((r) => ({ name: r.name, count: Number(r.n) }));
      },
      prune: async (minutesBefore, hoursBefore, trimFrom, keepTop) => {
        await db.deleteFrom('query_stats').where('step', '=', 60).where('at', '<', minutesBefore).execute();
        await db.deleteFrom('query_stats').where('step', '=', 3600).where('at', '<', hoursBefore).execute();
        await db.deleteFrom('query_top').where('at', '<', hoursBefore).execute();
        // A flood of random names leaves a long tail of names counted once or twice: keep each hour's most counted.
        await sql`delete from query_top where at >= ${trimFrom} and (zone_id, at, kind, name, node) in (
          select zone_id, at, kind, name, node from (
            select zone_id, at, kind, name, node, row_number() over (partition by zone_id, at, kind, node order by count desc, name) as rank
            from query_top where at >= ${trimFrom}) ranked
          where rank > ${keepTop})`.execute(db);
      },
    },
  };
}
