/**
 * Per-zone query statistics.
 *
 * - `query_stats`: one row per zone, resolution (`step`: 60 for minute rows, kept 48 h; 3600 for
 *   hourly rows, kept STATS_DAYS), start of the minute or hour (`at`, seconds since 1970) and
 *   node, holding counters that add up (core/query-stats-fields.ts). Each node writes only its own
 *   rows (`node`, drawn at each start), so nodes never contend for a row; reads sum them.
 * - `query_top`: per zone, hour, list (`names`, `nxdomain`), name and node: how often the name was
 *   among the most asked. Trimmed to the most counted names of each hour.
 * No foreign key to `domains`: a zone's rows go with retention, and writes never wait on it.
 */
import type { Kysely } from 'kysely';
import { STAT_FIELDS } from '../../core/query-stats-fields';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  let stats = db.schema
    .createTable('query_stats')
    .addColumn('zone_id', 'integer', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull());
  for (const f of STAT_FIELDS) stats = stats.addColumn(f, 'bigint', (c) => c.notNull().defaultTo(0));
  await stats.addPrimaryKeyConstraint('query_stats_pk', ['zone_id', 'step', 'at', 'node']).execute();
  await db.schema.createIndex('query_stats_age').on('query_stats').columns(['step', 'at']).execute();

  await db.schema
    .createTable('query_top')
    .addColumn('zone_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('query_top_pk', ['zone_id', 'at', 'kind', 'name', 'node'])
    .execute();
  await db.schema.createIndex('query_top_age').on('query_top').column('at').execute();
}
