/**
 * Catalog consumers (RFC 9432): catalogs an administrator follows, each transferred from its
 * primaries, whose member zones become secondary zones of a chosen owner (a user, or a team).
 *
 * - `catalogs`: the catalog's zone name, primaries (JSON) and TSIG key, the owner its members are
 *   made for, what its last check found (serial, members, error) and the lease a node holds while
 *   it checks it.
 * - `domains.catalog_id`: the catalog a secondary zone came from, so that a member dropped from
 *   its catalog is deleted (archived, restorable) and one made by hand is never touched.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const table = db.schema.createTable('catalogs');
  const withId = dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('zone', 'text', (c) => c.notNull().unique())
    .addColumn('primaries', 'text', (c) => c.notNull())
    .addColumn('tsig_key', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('serial', 'bigint')
    .addColumn('members', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_check', 'text')
    .addColumn('last_success', 'text')
    .addColumn('error', 'text')
    .addColumn('next_check', 'text', (c) => c.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema.alterTable('domains').addColumn('catalog_id', 'integer').execute();
}
