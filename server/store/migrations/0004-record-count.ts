/**
 * A running count of each zone's records, kept by the database itself (triggers), so that
 * the records-per-zone cap costs one row read, not a count over the zone, on every write.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('record_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update domains set record_count = (select count(*) from records where records.domain_id = domains.id)`.execute(db);
  if (dialect === 'sqlite') {
    await sql`CREATE TRIGGER records_count_insert AFTER INSERT ON records
              BEGIN UPDATE domains SET record_count = record_count + 1 WHERE id = NEW.domain_id; END`.execute(db);
    await sql`CREATE TRIGGER records_count_delete AFTER DELETE ON records
              BEGIN UPDATE domains SET record_count = record_count - 1 WHERE id = OLD.domain_id; END`.execute(db);
  } else {
    await sql`CREATE FUNCTION records_count() RETURNS trigger AS $$
              BEGIN
                IF TG_OP = 'INSERT' THEN UPDATE domains SET record_count = record_count + 1 WHERE id = NEW.domain_id;
                ELSE UPDATE domains SET record_count = record_count - 1 WHERE id = OLD.domain_id; END IF;
                RETURN NULL;
              END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER records_count AFTER INSERT OR DELETE ON records FOR EACH ROW EXECUTE FUNCTION records_count()`.execute(db);
  }
}
