/**
 * Zone history: one row per change set and one per record it added or
 * removed. Indexed so that "the change sets after serial N" (IXFR) and "page K of a zone's
 * changes" read only what they return, whatever the length of the history; the zone keeps a
 * running count of its change sets (triggers) for the list's total.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (t: { addColumn: Function }) =>
    dialect === 'postgres' ? (t as any).addColumn('id', 'serial', (c: any) => c.primaryKey()) : (t as any).addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('change_sets'))
    .addColumn('domain_id', 'integer', (c: any) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('serial_before', 'bigint', (c: any) => c.notNull())
    .addColumn('serial_after', 'bigint', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('source', 'text', (c: any) => c.notNull())
    .addColumn('actor_username', 'text', (c: any) => c.notNull())
    .addColumn('actor_credential', 'text', (c: any) => c.notNull())
    .addColumn('comment', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('settings', 'text', (c: any) => c.notNull().defaultTo('{}'))
    .addColumn('added_count', 'integer', (c: any) => c.notNull())
    .addColumn('removed_count', 'integer', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('change_sets_domain').on('change_sets').columns(['domain_id', 'id']).execute();
  await db.schema.createIndex('change_sets_serial').on('change_sets').columns(['domain_id', 'serial_before']).execute();
  await db.schema.createIndex('change_sets_created').on('change_sets').column('created_at').execute();

  await id(db.schema.createTable('change_set_records'))
    .addColumn('change_set_id', 'integer', (c: any) => c.notNull().references('change_sets.id').onDelete('cascade'))
    // 1: added, 0: removed.
    .addColumn('op', 'integer', (c: any) => c.notNull())
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('record_type', 'text', (c: any) => c.notNull())
    .addColumn('ttl', 'integer', (c: any) => c.notNull())
    .addColumn('content', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('change_set_records_set').on('change_set_records').columns(['change_set_id', 'op', 'id']).execute();

  await db.schema
    .alterTable('domains')
    .addColumn('change_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (dialect === 'sqlite') {
    await sql`CREATE TRIGGER change_sets_count_insert AFTER INSERT ON change_sets
              BEGIN UPDATE domains SET change_count = change_count + 1 WHERE id = NEW.domain_id; END`.execute(db);
    await sql`CREATE TRIGGER change_sets_count_delete AFTER DELETE ON change_sets
              BEGIN UPDATE domains SET change_count = change_count - 1 WHERE id = OLD.domain_id; END`.execute(db);
  } else {
    await sql`CREATE FUNCTION change_sets_count() RETURNS trigger AS $$
              BEGIN
                IF TG_OP = 'INSERT' THEN UPDATE domains SET change_count = change_count + 1 WHERE id = NEW.domain_id;
                ELSE UPDATE domains SET change_count = change_count - 1 WHERE id = OLD.domain_id; END IF;
                RETURN NULL;
              END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER change_sets_count AFTER INSERT OR DELETE ON change_sets FOR EACH ROW EXECUTE FUNCTION change_sets_count()`.execute(db);
  }
}
