/**
 * Deleted zones, kept HISTORY_DAYS days and restorable in one step.
 *
 * - `deleted_zones`: one row per deleted zone: its name, owner (`user_id`, `team_id`), who deleted
 *   it and when, when the archive expires, and `snapshot`, a JSON document of everything the zone
 *   held (its domain row, records, DNSSEC keys with their private halves sealed exactly as stored,
 *   history, attributes, comments, template link). The live tables are untouched: a deleted zone
 *   is no domain, so nothing serves, lists or counts it, and its name is free.
 * - `team_id` has no foreign key: a team may be deleted while an archive of one of its zones is
 *   kept (its restore is then refused, naming the team).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const table = db.schema.createTable('deleted_zones');
  const withId = dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer')
    .addColumn('domain_id', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'text', (c) => c.notNull())
    .addColumn('deleted_by', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('record_count', 'integer', (c) => c.notNull())
    .addColumn('dnssec', 'integer', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deleted_zones_user').on('deleted_zones').column('user_id').execute();
  await db.schema.createIndex('deleted_zones_team').on('deleted_zones').column('team_id').execute();
  await db.schema.createIndex('deleted_zones_expiry').on('deleted_zones').column('expires_at').execute();
}
