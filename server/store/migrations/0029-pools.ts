/**
 * Health-checked pools.
 *
 * - `domains.pools`: the zone's pools (JSON; null: none), a setting changed by change sets like the
 *   SOA timers, so that a pool is in the zone's history and a revert brings it back. What a pool
 *   answers now is written as the zone's own A/AAAA records.
 * - `pool_reports`: what each node's checks found of each member lately (its own view, up or down
 *   after its failure and success streaks) — one row per pool, member and node, rewritten when the
 *   node's view changes and now and then besides, so that a stale node's vote ages out.
 * - `pool_states`: each member's state as the nodes together judged it, and since when.
 * - `pool_transitions`: each change of a member's state, the newest kept (the pool's timeline).
 * Pools are named by `"<name> <type>"` in these tables; none of it is zone data (no serial).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('domains').addColumn('pools', 'text').execute();
  await db.schema
    .createTable('pool_reports')
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('pool', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull())
    .addColumn('up', 'integer')
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pool_reports_pk', ['domain_id', 'pool', 'address', 'node'])
    .execute();
  await db.schema
    .createTable('pool_states')
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('pool', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pool_states_pk', ['domain_id', 'pool', 'address'])
    .execute();
  await db.schema
    .createTable('pool_transitions')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('pool', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('from_state', 'text', (c) => c.notNull())
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull())
    .addColumn('votes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pool_transitions_pool').on('pool_transitions').columns(['domain_id', 'pool', 'id']).execute();
}
